import { maxImagesPerMessage, maxTextCharacters } from '@acme/contract';
import clsx from 'clsx';
import {
  type ClipboardEvent,
  type DragEvent,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { checkImage } from '../runtime/image-attachment-adapter';
import { useCopilotActions } from '../useCopilotActions';
import attachmentStyles from '../view/Attachment.module.css';
import styles from '../view/Composer.module.css';
import { ComposerNotices } from '../view/ComposerNotices';
import { Icon } from '../view/icons';
import { ignoreInputMethodEnter } from '../view/input-method';
import shared from '../view/shared.module.css';
import shell from './ChatShell.module.css';
import { changeDraft, readDraft } from './draft';
import { useDraft } from './useDraft';

/** A key per attached file for React's list (a file attached twice is two File objects, two keys). */
const fileKeys = new WeakMap<File, number>();
let nextKey = 0;
function keyOf(file: File): number {
  const known = fileKeys.get(file);
  if (known !== undefined) return known;
  fileKeys.set(file, nextKey);
  return nextKey++;
}

/** A file waiting in the light composer: its thumbnail (a data URL, which the strict CSP allows) and Remove. */
function ShellAttachment({ file, onRemove }: { file: File; onRemove: () => void }): ReactNode {
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    const reader = new FileReader();
    reader.onload = () => setPreview(String(reader.result));
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return (
    <div className={attachmentStyles.attachment} data-testid="copilot-attachment">
      <span className={attachmentStyles.attachmentThumb}>{preview ? <img src={preview} alt="" /> : null}</span>
      <span className={attachmentStyles.attachmentName}>{file.name}</span>
      <button type="button" className={attachmentStyles.attachmentRemove} aria-label="Remove file" onClick={onRemove}>
        <Icon name="close" size={12} />
      </button>
    </div>
  );
}

/**
 * The composer of the chat's first moments (a plain textarea, Attach and Send, in the real composer's look): what
 * the reader types or attaches goes to the draft the real composer takes over, and a question sent here is asked as
 * soon as the real chat is there. Files are checked as they are attached, as the real composer does.
 */
export function ShellComposer(): ReactNode {
  const draft = useDraft();
  const { allowAttachments } = useCopilotActions();
  const [problem, setProblem] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  // Drawn again in the real popover when its code arrives: the caret goes back where the reader left it.
  useLayoutEffect(() => {
    const { selectionStart, selectionEnd } = readDraft();
    field.current?.setSelectionRange(selectionStart, selectionEnd);
  }, []);
  const tooManyImages = draft.files.length > maxImagesPerMessage;
  const canSend = !draft.queued && !tooManyImages && (draft.text.trim() !== '' || draft.files.length > 0);

  const attach = async (files: readonly File[]) => {
    for (const file of files) {
      const checked = await checkImage(file);
      if ('refusal' in checked) setProblem(checked.refusal);
      else {
        setProblem(null);
        changeDraft({ files: [...readDraft().files, file] });
      }
    }
  };
  const send = () => {
    if (!canSend) return;
    setProblem(null);
    changeDraft({
      queued: { text: draft.text, files: draft.files },
      text: '',
      files: [],
      selectionStart: 0,
      selectionEnd: 0,
    });
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (!allowAttachments || files.length === 0) return;
    event.preventDefault();
    void attach(files);
  };
  const onDrop = (event: DragEvent<HTMLFormElement>) => {
    if (!allowAttachments || event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    void attach([...event.dataTransfer.files]);
  };

  return (
    <form
      className={styles.composer}
      data-testid="copilot-shell-composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      onDragOver={(event) => allowAttachments && event.preventDefault()}
      onDrop={onDrop}
    >
      {draft.files.length > 0 && (
        <div className={shared.attachments}>
          {draft.files.map((file) => (
            <ShellAttachment
              key={keyOf(file)}
              file={file}
              onRemove={() => changeDraft({ files: readDraft().files.filter((kept) => kept !== file) })}
            />
          ))}
        </div>
      )}
      <ComposerNotices attachmentProblem={problem} onDismiss={() => setProblem(null)} tooManyImages={tooManyImages} />
      <div className={styles.composerRow}>
        {allowAttachments && (
          <>
            <button
              type="button"
              className={shared.iconButton}
              aria-label="Attach file"
              onClick={() => picker.current?.click()}
            >
              <Icon name="attach" />
            </button>
            <input
              ref={picker}
              type="file"
              accept="image/*"
              multiple
              hidden
              onChange={(event) => {
                void attach([...(event.target.files ?? [])]);
                event.target.value = '';
              }}
            />
          </>
        )}
        <textarea
          ref={field}
          className={clsx(styles.composerInput, shell.input)}
          placeholder="Write a message..."
          aria-label="Message Dev Copilot"
          rows={1}
          maxLength={maxTextCharacters}
          // biome-ignore lint/a11y/noAutofocus: the reader opened the chat to write in it, as the real composer does
          autoFocus
          value={draft.text}
          onChange={(event) =>
            changeDraft({
              text: event.target.value,
              selectionStart: event.target.selectionStart,
              selectionEnd: event.target.selectionEnd,
            })
          }
          onSelect={(event) =>
            changeDraft({
              selectionStart: event.currentTarget.selectionStart,
              selectionEnd: event.currentTarget.selectionEnd,
            })
          }
          onKeyDown={(event) => {
            ignoreInputMethodEnter(event);
            if (event.defaultPrevented) return;
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              send();
            }
          }}
          onPaste={onPaste}
        />
        <button type="submit" className={styles.sendButton} aria-label="Send" disabled={!canSend}>
          <Icon name="send" />
        </button>
      </div>
    </form>
  );
}
