import { ActionBarPrimitive, ComposerPrimitive, MessagePartPrimitive, MessagePrimitive } from '@assistant-ui/react';
import type { ReactNode } from 'react';
import { useCopilotActions } from '../useCopilotActions';
import { AttachmentTile } from './Attachment';
import { BranchPicker } from './BranchPicker';
import { Icon } from './icons';
import { ignoreInputMethodEnter } from './input-method';
import shared from './shared.module.css';
import { TooltipButton } from './TooltipButton';
import styles from './UserMessage.module.css';

/** The question's text as typed (its line breaks and indents kept), without a paragraph's margin under it. */
const QuestionText = () => (
  <p className={styles.userText}>
    <MessagePartPrimitive.Text />
  </p>
);

/** The reader's question: its images (no longer removable), its text, Edit, and the branches edits made. */
export function UserMessage(): ReactNode {
  const actions = useCopilotActions();
  return (
    <MessagePrimitive.Root className={styles.userMessage} data-testid="copilot-user-message">
      <div className={shared.attachments}>
        <MessagePrimitive.Attachments>{() => <AttachmentTile removable={false} />}</MessagePrimitive.Attachments>
      </div>
      <div className={styles.userRow}>
        {actions.allowEdit && (
          <ActionBarPrimitive.Root hideWhenRunning autohide="never" className={styles.userActions}>
            <ActionBarPrimitive.Edit asChild>
              <TooltipButton tooltip="Edit">
                <Icon name="edit" />
              </TooltipButton>
            </ActionBarPrimitive.Edit>
          </ActionBarPrimitive.Root>
        )}
        <div className={styles.userBubble}>
          <MessagePrimitive.Parts components={{ Text: QuestionText }} />
        </div>
      </div>
      {actions.allowBranchPicker && <BranchPicker className={styles.userBranchPicker} />}
    </MessagePrimitive.Root>
  );
}

/** Editing a question: Send replaces it on a new branch, Cancel leaves it as it was. */
export function EditComposer(): ReactNode {
  return (
    <ComposerPrimitive.Root className={styles.editComposer} data-testid="copilot-edit-composer" data-editing-message>
      <ComposerPrimitive.Input
        className={styles.editInput}
        aria-label="Edit your message"
        autoFocus
        onKeyDown={ignoreInputMethodEnter}
      />
      <div className={styles.editButtons}>
        <ComposerPrimitive.Cancel className="button button--sm button--secondary">Cancel</ComposerPrimitive.Cancel>
        <ComposerPrimitive.Send className="button button--sm button--primary">Send</ComposerPrimitive.Send>
      </div>
    </ComposerPrimitive.Root>
  );
}
