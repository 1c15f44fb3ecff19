import { AttachmentPrimitive, useAuiState } from '@assistant-ui/react';
import { Dialog } from 'radix-ui';
import { type ReactNode, useEffect, useState } from 'react';
import styles from './Attachment.module.css';
import { Icon } from './icons';
import { TooltipButton } from './TooltipButton';

/** The image to show for an attachment: its data URL once sent, read from the file while it waits in the composer. */
function useAttachmentImage(): string | null {
  const file = useAuiState((s) => s.attachment.file);
  const sent = useAuiState((s) => s.attachment.content?.find((part) => part.type === 'image'));
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file || sent) return;
    // A data URL, not a blob: URL, so the strict CSP (img-src 'self' data:) needs no change.
    const reader = new FileReader();
    reader.onload = () => setPreview(String(reader.result));
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file, sent]);
  return sent?.type === 'image' ? sent.image : preview;
}

/** A thumbnail that opens the "Image Attachment Preview" dialog; in the composer it can still be removed. */
export function AttachmentTile({ removable }: { removable: boolean }): ReactNode {
  const image = useAttachmentImage();
  const name = useAuiState((s) => s.attachment.name);
  return (
    <AttachmentPrimitive.Root className={styles.attachment} data-testid="copilot-attachment">
      <Dialog.Root>
        <Dialog.Trigger
          className={styles.attachmentThumb}
          aria-label={`Preview ${name}`}
          disabled={!image}
          // A screenshot from an earlier visit: it went with its question and was never stored.
          title={image ? undefined : 'Not kept: screenshots are sent with their question and never stored'}
        >
          {image ? <img src={image} alt="" /> : <Icon name="attach" />}
        </Dialog.Trigger>
        <Dialog.Portal>
          <Dialog.Overlay className={styles.dialogOverlay} />
          <Dialog.Content className={styles.dialog} aria-describedby={undefined} data-testid="attachment-preview">
            <Dialog.Title className={styles.dialogTitle}>Image Attachment Preview</Dialog.Title>
            {image && <img className={styles.dialogImage} src={image} alt={name} />}
            {/* No tooltip here: the dialog focuses this button on opening, and a tooltip open on it would take the
                reader's first Escape, so the preview would need two. */}
            <Dialog.Close className={styles.dialogClose} aria-label="Close">
              <Icon name="close" />
            </Dialog.Close>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      <span className={styles.attachmentName}>
        <AttachmentPrimitive.Name />
      </span>
      {removable && (
        <AttachmentPrimitive.Remove asChild>
          <TooltipButton tooltip="Remove file" className={styles.attachmentRemove}>
            <Icon name="close" size={12} />
          </TooltipButton>
        </AttachmentPrimitive.Remove>
      )}
    </AttachmentPrimitive.Root>
  );
}
