import Link from '@docusaurus/Link';
import clsx from 'clsx';
import type { ReactNode } from 'react';
import { siteFacts } from '../../../../site.config';
import popover from '../FloatingCopilot.module.css';
import { Icon } from '../view/icons';
import shared from '../view/shared.module.css';
import thread from '../view/Thread.module.css';
import styles from './ChatShell.module.css';
import { ShellComposer } from './ShellComposer';
import { ShellConversation } from './ShellConversation';

type Props = { onClose: () => void; failed: boolean; onRetry: () => void };

/**
 * The chat as it opens on the first click, before its code (assistant-ui, markdown) has arrived: the same box,
 * header and composer, with a placeholder where the conversation will be. The composer works at once; the real
 * popover replaces this box as soon as the code is there, and keeps this composer until its conversation is loaded.
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
        <button
          type="button"
          className={shared.iconButton}
          aria-label={`Close ${siteFacts.assistantName}`}
          onClick={onClose}
        >
          <Icon name="close" />
        </button>
      </div>
      <div className={thread.thread}>
        <div className={thread.viewport} aria-busy={!failed}>
          <ShellConversation failed={failed} onRetry={onRetry} />
          <div className={thread.viewportFooter}>
            <ShellComposer />
          </div>
        </div>
      </div>
    </div>
  );
}
