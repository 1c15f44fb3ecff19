import { handbookSearchToolName } from '@acme/contract';
import { AuiIf, ErrorPrimitive, MessagePrimitive, useAuiState } from '@assistant-ui/react';
import type { ReactNode } from 'react';
import { endsSession } from '../runtime/copilot-error';
import { useCopilotActions } from '../useCopilotActions';
import { AssistantActionBar } from './AssistantActionBar';
import { AssistantAvatar } from './AssistantAvatar';
import styles from './AssistantMessage.module.css';
import { BranchPicker } from './BranchPicker';
import { ConfidenceNote } from './ConfidenceNote';
import { HandbookSearch, NoOtherTool } from './HandbookSearch';
import { MarkdownText } from './MarkdownText';
import { ReloadPageButton } from './ReloadPageButton';
import { RetryButton } from './RetryButton';
import { Sources } from './Sources';

const NoInlineSource = () => null;

/**
 * A question the server refused as asked (an unreadable image, a bad request) or a session that ended gets the same
 * refusal if sent again: such an error offers no Retry. A session that ended offers a reload instead.
 */
const isRetryable = (code: unknown) => !(typeof code === 'string' && /^(bad_request|unauthorized)/.test(code));

/** An answer: avatar, streamed markdown, its sources, then what can be done with it. */
export function AssistantMessage(): ReactNode {
  const actions = useCopilotActions();
  const status = useAuiState((s) => s.message.status);
  const statusName = status?.type === 'incomplete' ? `incomplete-${status.reason}` : (status?.type ?? 'complete');
  const failed = status?.type === 'incomplete' && status.reason === 'error';
  const error =
    failed && typeof status.error === 'object' ? (status.error as { code?: unknown; retryAt?: unknown }) : {};
  const errorCode = error?.code;
  const retryAt = typeof error?.retryAt === 'number' ? error.retryAt : undefined;
  return (
    <MessagePrimitive.Root
      className={styles.assistantMessage}
      data-testid="copilot-assistant-message"
      data-status={statusName}
    >
      <AssistantAvatar />
      <div className={styles.assistantBody}>
        <ConfidenceNote />
        <div className={styles.assistantContent}>
          <MessagePrimitive.Parts
            components={{
              Text: MarkdownText,
              Source: NoInlineSource,
              tools: { by_name: { [handbookSearchToolName]: HandbookSearch }, Fallback: NoOtherTool },
            }}
          />
          <AuiIf condition={(s) => s.message.status?.type === 'running' && s.message.content.length === 0}>
            <span className={styles.thinking} role="status">
              Looking through the handbook…
            </span>
          </AuiIf>
        </div>
        <Sources />
        <MessagePrimitive.Error>
          <ErrorPrimitive.Root className={styles.messageError} role="alert" data-testid="copilot-error">
            <ErrorPrimitive.Message />
            {isRetryable(errorCode) && <RetryButton retryAt={retryAt} />}
            {endsSession(errorCode) && <ReloadPageButton />}
          </ErrorPrimitive.Root>
        </MessagePrimitive.Error>
        <AuiIf condition={(s) => s.message.metadata.custom.stillWriting === true}>
          <p className={styles.thinking} role="status" data-testid="copilot-still-writing">
            Dev Copilot is still writing this answer…
          </p>
        </AuiIf>
        <AuiIf condition={(s) => s.message.status?.type === 'incomplete' && s.message.status.reason === 'cancelled'}>
          <p className={styles.cancelled} data-testid="copilot-cancelled">
            You stopped this answer.
          </p>
        </AuiIf>
        <AuiIf condition={(s) => s.message.metadata.custom.stillWriting !== true}>
          <div className={styles.assistantFooter}>
            {actions.allowBranchPicker && <BranchPicker />}
            {/* An error is not an answer: nothing to copy, read aloud or rate. */}
            {!failed && <AssistantActionBar />}
          </div>
        </AuiIf>
      </div>
    </MessagePrimitive.Root>
  );
}
