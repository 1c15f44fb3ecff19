import { maxImagesPerMessage, maxTextCharacters } from '@acme/contract';
import { ComposerPrimitive, useAuiEvent, useAuiState } from '@assistant-ui/react';
import { type KeyboardEvent, type ReactNode, useRef, useState, useSyncExternalStore } from 'react';
import { threadCreation } from '../runtime/thread-creation';
import { useCopilotActions } from '../useCopilotActions';
import { AttachmentTile } from './Attachment';
import styles from './Composer.module.css';
import { ComposerNotices } from './ComposerNotices';
import { Icon } from './icons';
import { ignoreInputMethodEnter } from './input-method';
import { listFocus } from './list-focus';
import { StartProblem } from './StartProblem';
import shared from './shared.module.css';
import { TooltipButton } from './TooltipButton';
import { useConversationLoaded } from './useConversationLoaded';
import { useDraftHandover } from './useDraftHandover';
import { useFollowingAnswer, useStopFollowedAnswer } from './useFollowedAnswer';

/** The core refuses a non-image before our adapter sees it; say it in the same words as our own checks. */
function attachmentErrorText(reason: string, message: string, contentType?: string): string {
  if (reason === 'not-accepted') {
    return `${contentType || 'That file'} is not an image Dev Copilot can read. Attach a PNG, JPEG, GIF or WebP image.`;
  }
  return message;
}

/**
 * Spec section 4: while an answer runs, Enter does not submit. The primitive then lets the key through, and the
 * browser would add a line the reader never asked for; Enter does nothing instead (Shift+Enter still adds a line).
 */
function ignoreEnterWhileRunning(event: KeyboardEvent<HTMLTextAreaElement>, isRunning: boolean) {
  if (isRunning && event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) event.preventDefault();
}

/** Why the last file was refused, until the next one is accepted, a message is sent or the reader dismisses it. */
function useAttachmentError(): [string | null, () => void] {
  const [error, setError] = useState<string | null>(null);
  useAuiEvent('composer.attachmentAddError', (event) =>
    setError(attachmentErrorText(event.reason, event.message, event.contentType)),
  );
  useAuiEvent('composer.attachmentAdd', () => setError(null));
  useAuiEvent('composer.send', () => setError(null));
  return [error, () => setError(null)];
}

/**
 * "Write a message...": grows as the reader types, Enter sends, Shift+Enter starts a new line, Escape stops a run
 * (all ComposerPrimitive.Input behaviour, which also ignores Enter during IME composition). Images by picker, paste
 * or drop. An answer the server is still writing for an earlier page (the reader reloaded mid-answer) is not a run of
 * this page, so the primitive knows nothing of it: the composer treats it as a run all the same (Stop instead of
 * Send, Escape stops it, a draft can be written but not sent until it ends).
 */
export function Composer(): ReactNode {
  const actions = useCopilotActions();
  const [attachmentError, dismissError] = useAttachmentError();
  // A question sent before the stored conversation is in would start a second thread and then be overwritten.
  // Until the reader's threads are listed, the conversation on screen may not be the one the question belongs to.
  const isLoading = useAuiState((s) => s.thread.isLoading || s.threads.isLoading);
  const tooManyImages = useAuiState((s) => s.composer.attachments.length > maxImagesPerMessage);
  const ownRun = useAuiState((s) => s.thread.isRunning);
  // The followed answer must end before the next question, which would otherwise be refused (one answer at a time).
  const following = useFollowingAnswer();
  const stopFollowed = useStopFollowedAnswer();
  const isRunning = ownRun || following;
  const starting = useSyncExternalStore(threadCreation.subscribe, threadCreation.underway, () => false);
  const listKeepsFocus = useSyncExternalStore(listFocus.subscribe, listFocus.kept, () => false);
  const input = useRef<HTMLTextAreaElement>(null);
  useDraftHandover(input, useConversationLoaded() && !isLoading && !isRunning);
  const body = (
    <ComposerPrimitive.Root
      className={styles.composer}
      data-testid="copilot-composer"
      // Enter submits the form whatever the Send button says; a prevented submit is one the primitive skips.
      onSubmit={(event) => (isLoading || following || tooManyImages || starting) && event.preventDefault()}
    >
      {actions.allowAttachments && (
        <div className={shared.attachments}>
          <ComposerPrimitive.Attachments>{() => <AttachmentTile removable />}</ComposerPrimitive.Attachments>
        </div>
      )}
      <ComposerNotices attachmentProblem={attachmentError} onDismiss={dismissError} tooManyImages={tooManyImages} />
      <StartProblem />
      {starting && (
        <p className={styles.starting} role="status">
          Starting the conversation…
        </p>
      )}
      <div className={styles.composerRow}>
        {actions.allowAttachments && (
          <ComposerPrimitive.AddAttachment asChild multiple disabled={isLoading}>
            <TooltipButton tooltip="Attach file">
              <Icon name="attach" />
            </TooltipButton>
          </ComposerPrimitive.AddAttachment>
        )}
        <ComposerPrimitive.Input
          ref={input}
          className={styles.composerInput}
          placeholder="Write a message..."
          aria-label="Message Dev Copilot"
          rows={1}
          maxRows={8}
          maxLength={maxTextCharacters}
          // The primitive puts the cursor here whenever a conversation opens, unless the list keeps the focus.
          autoFocus={!listKeepsFocus}
          onFocus={listFocus.release}
          readOnly={isLoading}
          onKeyDown={(event) => {
            ignoreInputMethodEnter(event);
            ignoreEnterWhileRunning(event, isRunning || starting);
            if (following && event.key === 'Escape' && !event.nativeEvent.isComposing) stopFollowed();
          }}
          aria-busy={isLoading}
          addAttachmentOnPaste={actions.allowAttachments}
        />
        {!isRunning && (
          <ComposerPrimitive.Send asChild disabled={isLoading || tooManyImages || starting}>
            <TooltipButton tooltip="Send" className={styles.sendButton}>
              <Icon name="send" />
            </TooltipButton>
          </ComposerPrimitive.Send>
        )}
        {ownRun && (
          <ComposerPrimitive.Cancel asChild>
            <TooltipButton tooltip="Stop" className={styles.sendButton}>
              <Icon name="stop" />
            </TooltipButton>
          </ComposerPrimitive.Cancel>
        )}
        {following && !ownRun && (
          <TooltipButton tooltip="Stop" className={styles.sendButton} onClick={stopFollowed}>
            <Icon name="stop" />
          </TooltipButton>
        )}
      </div>
    </ComposerPrimitive.Root>
  );
  if (!actions.allowAttachments) return body;
  return (
    <ComposerPrimitive.AttachmentDropzone className={styles.dropzone}>{body}</ComposerPrimitive.AttachmentDropzone>
  );
}
