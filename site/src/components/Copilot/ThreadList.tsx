import { maxThreadTitleCharacters } from '@acme/contract';
import { ThreadListItemPrimitive, ThreadListPrimitive, useAui, useAuiState } from '@assistant-ui/react';
import clsx from 'clsx';
import { type FormEvent, type ReactNode, useState } from 'react';
import styles from './ThreadList.module.css';

/** Archives or deletes the open conversation (`change`), so the page can open the next one, or return if refused. */
type OnLeave = (threadId: string, change: () => Promise<unknown>) => void;

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
        maxLength={maxThreadTitleCharacters}
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
  const aui = useAui();
  const { id, title, status } = useAuiState((s) => s.threadListItem);
  const current = useAuiState((s) => s.threads.mainThreadId === s.threadListItem.id);
  const archived = status === 'archived';
  // assistant-ui returns the adapter's task from these (they are typed void): it says whether the server took it.
  const archive = () => Promise.resolve(aui.threadListItem.archive());
  const remove = () => Promise.resolve(aui.threadListItem.delete());
  const leaveWith = (change: () => Promise<unknown>) => (current ? onLeave(id, change) : change());
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
            <button
              type="button"
              className="clean-btn"
              aria-label={named('Yes, delete')}
              onClick={() => leaveWith(remove)}
            >
              Yes, delete
            </button>
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
              <button
                type="button"
                className="clean-btn"
                aria-label={named('Archive')}
                onClick={() => leaveWith(archive)}
              >
                Archive
              </button>
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
  // The list comes a page at a time; older conversations are one press away.
  const hasMore = useAuiState((s) => s.threads.hasMore);
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
        {hasMore && (
          <ThreadListPrimitive.LoadMore className={clsx('clean-btn', styles.loadMore)}>
            Show older conversations
          </ThreadListPrimitive.LoadMore>
        )}
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
