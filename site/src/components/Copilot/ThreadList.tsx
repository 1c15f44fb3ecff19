import clsx from 'clsx';
import { type FormEvent, type ReactNode, useState } from 'react';
import type { ThreadDto } from './runtime/wire-types';
import styles from './view/page.module.css';

export type ThreadActions = {
  open: (thread: ThreadDto) => void;
  rename: (thread: ThreadDto, title: string) => void;
  archive: (thread: ThreadDto) => void;
  unarchive: (thread: ThreadDto) => void;
  remove: (thread: ThreadDto) => void;
};

function RenameForm({ thread, onDone }: { thread: ThreadDto; onDone: (title: string | null) => void }): ReactNode {
  const [title, setTitle] = useState(thread.title);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onDone(title.trim() || null);
  };
  return (
    <form onSubmit={submit} className={styles.renameForm}>
      <input
        aria-label="New title"
        value={title}
        maxLength={200}
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && onDone(null)}
        // biome-ignore lint/a11y/noAutofocus: the reader just asked to rename this thread
        autoFocus
      />
      <button type="submit" className="button button--sm button--primary">
        Save
      </button>
    </form>
  );
}

function ThreadRow({
  thread,
  current,
  actions,
}: {
  thread: ThreadDto;
  current: boolean;
  actions: ThreadActions;
}): ReactNode {
  const [renaming, setRenaming] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const archived = thread.status === 'archived';
  // Every row has the same buttons; their names say which conversation they act on.
  const named = (verb: string) => `${verb} ${thread.title}`;
  return (
    <li className={clsx(styles.threadRow, current && styles.currentThread)} data-testid="thread-row">
      {renaming ? (
        <RenameForm
          thread={thread}
          onDone={(title) => {
            setRenaming(false);
            if (title && title !== thread.title) actions.rename(thread, title);
          }}
        />
      ) : (
        <button
          type="button"
          className={clsx('clean-btn', styles.threadTitle)}
          aria-current={current ? 'page' : undefined}
          onClick={() => actions.open(thread)}
        >
          {thread.title}
        </button>
      )}
      {confirmingDelete ? (
        <span className={styles.threadActions}>
          <span>Delete for good?</span>
          <button
            type="button"
            className="clean-btn"
            aria-label={named('Yes, delete')}
            onClick={() => {
              setConfirmingDelete(false);
              actions.remove(thread);
            }}
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
            <button type="button" className="clean-btn" aria-label={named('Rename')} onClick={() => setRenaming(true)}>
              Rename
            </button>
          )}
          <button
            type="button"
            className="clean-btn"
            aria-label={named(archived ? 'Unarchive' : 'Archive')}
            onClick={() => (archived ? actions.unarchive(thread) : actions.archive(thread))}
          >
            {archived ? 'Unarchive' : 'Archive'}
          </button>
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
  );
}

/** The reader's conversations (spec section 4): new, rename, archive / unarchive, delete. */
export function ThreadList({
  regular,
  archived,
  currentId,
  onNew,
  actions,
}: {
  regular: ThreadDto[];
  archived: ThreadDto[];
  currentId: string | null;
  onNew: () => void;
  actions: ThreadActions;
}): ReactNode {
  return (
    <nav className={styles.threadList} aria-label="Conversations" data-testid="thread-list">
      <button type="button" className="button button--primary button--block" onClick={onNew}>
        New conversation
      </button>
      {regular.length === 0 && <p className={styles.emptyList}>No conversations yet.</p>}
      <ul data-testid="regular-threads">
        {regular.map((thread) => (
          <ThreadRow key={thread.id} thread={thread} current={thread.id === currentId} actions={actions} />
        ))}
      </ul>
      {archived.length > 0 && (
        <details className={styles.archived}>
          <summary>Archived ({archived.length})</summary>
          <ul data-testid="archived-threads">
            {archived.map((thread) => (
              <ThreadRow key={thread.id} thread={thread} current={thread.id === currentId} actions={actions} />
            ))}
          </ul>
        </details>
      )}
    </nav>
  );
}
