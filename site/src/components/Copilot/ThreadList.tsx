import { ThreadListItemPrimitive, ThreadListPrimitive, useAui, useAuiState } from '@assistant-ui/react';
import clsx from 'clsx';
import { type FormEvent, type ReactNode, useState } from 'react';
import styles from './ThreadList.module.css';

/** Called before the open conversation is archived or deleted, so the page can open the next one. */
type OnLeave = (threadId: string) => void;

function RenameForm({ onDone }: { onDone: () => void }): ReactNode {
  const aui = useAui();
  const current = useAuiState((s) => s.threadListItem.title ?? '');
  const [title, setTitle] = useState(current);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = title.trim();
    if (next && next !== current) aui.threadListItem.rename(next);
    onDone();
  };
  return (
    <form onSubmit={submit} className={styles.renameForm}>
      <input
        aria-label="New title"
        value={title}
        maxLength={200}
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && onDone()}
        // biome-ignore lint/a11y/noAutofocus: the reader just asked to rename this thread
        autoFocus
      />
      <button type="submit" className="button button--sm button--primary">
        Save
      </button>
    </form>
  );
}

/** One conversation: open it, rename it, archive or unarchive it, delete it (after a confirmation). */
function ThreadRow({ onLeave }: { onLeave: OnLeave }): ReactNode {
  const [renaming, setRenaming] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const { id, title, status } = useAuiState((s) => s.threadListItem);
  const current = useAuiState((s) => s.threads.mainThreadId === s.threadListItem.id);
  const archived = status === 'archived';
  const leave = () => current && onLeave(id);
  // Every row has the same buttons; their names say which conversation they act on.
  const named = (verb: string) => `${verb} ${title ?? 'New chat'}`;
  return (
    <ThreadListItemPrimitive.Root asChild>
      <li className={clsx(styles.threadRow, current && styles.currentThread)} data-testid="thread-row">
        {renaming ? (
          <RenameForm onDone={() => setRenaming(false)} />
        ) : (
          <ThreadListItemPrimitive.Trigger
            className={clsx('clean-btn', styles.threadTitle)}
            aria-current={current ? 'page' : undefined}
          >
            <ThreadListItemPrimitive.Title fallback="New chat" />
          </ThreadListItemPrimitive.Trigger>
        )}
        {confirmingDelete ? (
          <span className={styles.threadActions}>
            <span>Delete for good?</span>
            <ThreadListItemPrimitive.Delete className="clean-btn" aria-label={named('Yes, delete')} onClick={leave}>
              Yes, delete
            </ThreadListItemPrimitive.Delete>
            <button
              type="button"
              className="clean-btn"
              onClick={() => setConfirmingDelete(false)}
              // biome-ignore lint/a11y/noAutofocus: the Delete button just pressed is gone; the safe choice takes the focus
              autoFocus
            >
              Keep
            </button>
          </span>
        ) : (
          <span className={styles.threadActions}>
            {!archived && (
              <button
                type="button"
                className="clean-btn"
                aria-label={named('Rename')}
                onClick={() => setRenaming(true)}
              >
                Rename
              </button>
            )}
            {archived ? (
              <ThreadListItemPrimitive.Unarchive className="clean-btn" aria-label={named('Unarchive')}>
                Unarchive
              </ThreadListItemPrimitive.Unarchive>
            ) : (
              <ThreadListItemPrimitive.Archive className="clean-btn" aria-label={named('Archive')} onClick={leave}>
                Archive
              </ThreadListItemPrimitive.Archive>
            )}
            <button
              type="button"
              className="clean-btn"
              aria-label={named('Delete')}
              onClick={() => setConfirmingDelete(true)}
            >
              Delete
            </button>
          </span>
        )}
      </li>
    </ThreadListItemPrimitive.Root>
  );
}

/** The reader's conversations (spec section 4), on assistant-ui's thread-list primitives. */
export function ThreadList({ onLeave }: { onLeave: OnLeave }): ReactNode {
  const regularCount = useAuiState((s) => s.threads.threadIds.length);
  const archivedCount = useAuiState((s) => s.threads.archivedThreadIds.length);
  return (
    <ThreadListPrimitive.Root asChild>
      <nav className={styles.threadList} aria-label="Conversations" data-testid="thread-list">
        <ThreadListPrimitive.New className="button button--primary button--block">
          New conversation
        </ThreadListPrimitive.New>
        {regularCount === 0 && <p className={styles.emptyList}>No conversations yet.</p>}
        <ul data-testid="regular-threads">
          <ThreadListPrimitive.Items>{() => <ThreadRow onLeave={onLeave} />}</ThreadListPrimitive.Items>
        </ul>
        {archivedCount > 0 && (
          <details className={styles.archived}>
            <summary>Archived ({archivedCount})</summary>
            <ul data-testid="archived-threads">
              <ThreadListPrimitive.Items archived>{() => <ThreadRow onLeave={onLeave} />}</ThreadListPrimitive.Items>
            </ul>
          </details>
        )}
      </nav>
    </ThreadListPrimitive.Root>
  );
}
