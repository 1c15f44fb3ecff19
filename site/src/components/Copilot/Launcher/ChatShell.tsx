import Link from '@docusaurus/Link';
import clsx from 'clsx';
import type { ReactNode } from 'react';
import { siteFacts } from '../../../../site.config';
import popover from '../FloatingCopilot.module.css';
import { Icon } from '../view/icons';
import shared from '../view/shared.module.css';
import thread from '../view/Thread.module.css';
import userMessage from '../view/UserMessage.module.css';
import styles from './ChatShell.module.css';
import { ShellComposer } from './ShellComposer';
import { useDraft } from './useDraft';

/** A question sent before the chat's code arrived, shown as the reader's message until the real chat asks it. */
function QueuedQuestion(): ReactNode {
  const { queued } = useDraft();
  if (!queued) return null;
  return (
    <div className={userMessage.userMessage} data-testid="copilot-queued-question">
      {queued.files.length > 0 && (
        <p className={styles.queuedFiles}>
          {queued.files.length === 1 ? '1 image' : `${queued.files.length} images`} attached
        </p>
      )}
      <div className={userMessage.userRow}>
        <div className={userMessage.userBubble}>
          <p className={userMessage.userText}>{queued.text}</p>
        </div>
      </div>
    </div>
  );
}

type Props = { onClose: () => void; failed: boolean; onRetry: () => void };

/**
 * The chat as it opens on the first click, before its code (assistant-ui, markdown) has arrived: the same box,
 * header and composer, with a placeholder where the conversation will be. The composer works at once; the real chat
 * replaces this box, the reader's text, caret and files carried over, once its conversation is on screen.
 */
export function ChatShell({ onClose, failed, onRetry }: Props): ReactNode {
  return (
    <div
      role="dialog"
      aria-label={siteFacts.assistantName}
      className={clsx(popover.popover, styles.shell)}
      data-testid="copilot-popover"
      data-shell=""
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <div className={popover.popoverHeader}>
        <span className={popover.popoverTitle}>{siteFacts.assistantName}</span>
        <button type="button" className={shared.iconButton} aria-label="New conversation" disabled>
          <Icon name="plus" />
        </button>
        <Link to={siteFacts.assistantPath} className={shared.iconButton} aria-label="Open all conversations">
          <Icon name="expand" />
        </Link>
        <button type="button" className={shared.iconButton} aria-label="Close" onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <div className={thread.thread}>
        <div className={thread.viewport} aria-busy={!failed}>
          <QueuedQuestion />
          {failed ? (
            <p className={shared.problem} role="alert">
              Dev Copilot could not load. Check the connection and try again.
              <button type="button" className="button button--sm button--secondary" onClick={onRetry}>
                Try again
              </button>
            </p>
          ) : (
            <div className={styles.placeholder} data-testid="copilot-loading">
              <span className={styles.visuallyHidden} role="status">
                Loading the conversation
              </span>
              <span className={styles.bar} />
              <span className={styles.bar} />
              <span className={styles.bar} />
            </div>
          )}
          <div className={thread.viewportFooter}>
            <ShellComposer />
          </div>
        </div>
      </div>
    </div>
  );
}
