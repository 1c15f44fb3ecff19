import { maxThreadTitleCharacters } from '@acme/contract';
import { ThreadListItemPrimitive, ThreadListPrimitive, useAui, useAuiState } from '@assistant-ui/react';
import clsx from 'clsx';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import hidden from '../../css/visually-hidden.module.css';
import ConfirmChoice from '../ConfirmChoice';
import { useFocusReturn } from '../ConfirmChoice/useFocusReturn';
import styles from './ThreadList.module.css';
import { LastActive } from './view/LastActive';
import { listFocus } from './view/list-focus';

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

/**
 * A row about to leave its list (archived, unarchived, deleted) takes its focused button with it: the focus goes to
 * the next conversation of the list, else the one before it, else to New conversation, never to the page's body.
 */
function focusAfterLeaving(row: HTMLElement | null) {
  const neighbour = row?.nextElementSibling ?? row?.previousElementSibling;
  const target =
    neighbour?.querySelector<HTMLElement>('[data-thread-title]') ??
    row?.closest('nav')?.querySelector<HTMLElement>('[data-new-conversation]');
  if (!target) return;
  target.focus();
  // The conversation opened next (the open one left) would otherwise put the cursor in its composer.
  listFocus.keep();
}

/** The reader opens or starts a conversation from the list: its composer takes the focus again. */
const chosen = (fold: () => void) => () => {
  listFocus.release();
  fold();
};

type RowProps = {
  onLeave: OnLeave;
  onOpen: () => void;
  /** Says a change's result to screen readers (the row that changed leaves the list, so the list says it). */
  announce: (text: string) => void;
};

/** One conversation: open it, rename it, archive or unarchive it, delete it (after a confirmation). */
function ThreadRow({ onLeave, onOpen, announce }: RowProps): ReactNode {
  const row = useRef<HTMLLIElement>(null);
  const [renaming, setRenaming] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  // Rename and Keep close what Rename and Delete opened: the focus goes back to the button pressed.
  const renameButton = useFocusReturn();
  const deleteButton = useFocusReturn();
  const aui = useAui();
  const { id, title, status, lastMessageAt } = useAuiState((s) => s.threadListItem);
  const current = useAuiState((s) => s.threads.mainThreadId === s.threadListItem.id);
  const archived = status === 'archived';
  // assistant-ui returns the adapter's task from these (they are typed void): it says whether the server took it.
  const thenSay = (change: () => unknown, result: string) => () => {
    // Emptied first, so a second archive or delete in a row is said again.
    announce('');
    return Promise.resolve(change()).then(() => announce(result));
  };
  const archive = thenSay(() => aui.threadListItem.archive(), 'Conversation archived.');
  const remove = thenSay(() => aui.threadListItem.delete(), 'Conversation deleted.');
  const leaveWith = (change: () => Promise<unknown>) => {
    focusAfterLeaving(row.current);
    return current ? onLeave(id, change) : change();
  };
  // Every row has the same buttons; their names say which conversation they act on.
  const named = (verb: string) => `${verb} ${title ?? 'New chat'}`;
  return (
    <ThreadListItemPrimitive.Root asChild>
      <li ref={row} className={clsx(styles.threadRow, current && styles.currentThread)} data-testid="thread-row">
        {renaming ? (
          <RenameForm
            onDone={() => {
              renameButton.returnFocus();
              setRenaming(false);
            }}
          />
        ) : (
          <ThreadListItemPrimitive.Trigger
            className={clsx('clean-btn', styles.threadTitle)}
            aria-current={current ? 'page' : undefined}
            data-thread-title=""
            onClick={onOpen}
          >
            <ThreadListItemPrimitive.Title fallback="New chat" />
          </ThreadListItemPrimitive.Trigger>
        )}
        {confirmingDelete ? (
          <ConfirmChoice
            question="Delete for good?"
            confirmLabel="Yes, delete"
            confirmName={named('Yes, delete')}
            onConfirm={() => leaveWith(remove)}
            onKeep={() => setConfirmingDelete(false)}
            opener={deleteButton}
            className={styles.threadActions}
            confirmClassName="clean-btn"
            keepClassName="clean-btn"
          />
        ) : (
          <span className={clsx(styles.threadActions, styles.revealedActions)}>
            <LastActive at={lastMessageAt} className={styles.lastActive} />
            {!archived && (
              <button
                ref={renameButton.ref}
                type="button"
                className="clean-btn"
                aria-label={named('Rename')}
                onClick={() => setRenaming(true)}
              >
                Rename
              </button>
            )}
            {archived ? (
              <ThreadListItemPrimitive.Unarchive
                className="clean-btn"
                aria-label={named('Unarchive')}
                onClick={() => focusAfterLeaving(row.current)}
              >
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
              ref={deleteButton.ref}
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

/**
 * The reader's conversations (spec section 4), on assistant-ui's thread-list primitives. On a phone the list sits
 * above the conversation: it is folded behind a Conversations button, so the conversation keeps the screen, and folds
 * again once one is chosen.
 */
export function ThreadList({ onLeave }: { onLeave: OnLeave }): ReactNode {
  const regularCount = useAuiState((s) => s.threads.threadIds.length);
  const archivedCount = useAuiState((s) => s.threads.archivedThreadIds.length);
  // The list comes a page at a time; older conversations are one press away.
  const hasMore = useAuiState((s) => s.threads.hasMore);
  const [unfolded, setUnfolded] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const fold = chosen(() => setUnfolded(false));
  const listId = useId();
  const row = () => <ThreadRow onLeave={onLeave} onOpen={fold} announce={setAnnouncement} />;
  return (
    <ThreadListPrimitive.Root asChild>
      <nav
        className={styles.threadList}
        aria-label="Conversations"
        data-testid="thread-list"
        data-unfolded={unfolded || undefined}
      >
        <div className={styles.listBar}>
          <ThreadListPrimitive.New
            className="button button--primary button--block"
            data-new-conversation=""
            onClick={fold}
          >
            New conversation
          </ThreadListPrimitive.New>
          <button
            type="button"
            className={clsx('button button--secondary', styles.listToggle)}
            aria-expanded={unfolded}
            aria-controls={listId}
            onClick={() => setUnfolded(!unfolded)}
          >
            Conversations ({regularCount})
          </button>
        </div>
        {/* On the page from the start, so screen readers watch it before it speaks. */}
        <p className={hidden.visuallyHidden} role="status" data-testid="thread-list-status">
          {announcement}
        </p>
        <div id={listId} className={styles.listBody}>
          {regularCount === 0 && <p className={styles.emptyList}>No conversations yet.</p>}
          <ul data-testid="regular-threads">
            <ThreadListPrimitive.Items>{row}</ThreadListPrimitive.Items>
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
                <ThreadListPrimitive.Items archived>{row}</ThreadListPrimitive.Items>
              </ul>
            </details>
          )}
        </div>
      </nav>
    </ThreadListPrimitive.Root>
  );
}
