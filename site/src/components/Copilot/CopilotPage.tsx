import { AssistantRuntimeProvider } from '@assistant-ui/react';
import { type ReactNode, useRef, useState } from 'react';
import { PendingQuestion } from './PendingQuestion';
import type { OnThreadKnown, ThreadChoice } from './runtime/server-thread-history';
import { threadApi } from './runtime/thread-api';
import { useCopilotRuntime } from './runtime/useCopilotRuntime';
import type { ThreadDto } from './runtime/wire-types';
import { SaveProblem } from './SaveProblem';
import { type ThreadActions, ThreadList } from './ThreadList';
import { useCopilotActions } from './useCopilotActions';
import { useSuggestions } from './useSuggestions';
import { useThreadList } from './useThreadList';
import styles from './view/page.module.css';
import { Thread } from './view/Thread';

function Conversation({ choice, onThreadKnown }: { choice: ThreadChoice; onThreadKnown: OnThreadKnown }): ReactNode {
  const actions = useCopilotActions();
  const { runtime, history } = useCopilotRuntime(choice, actions, onThreadKnown);
  const suggestions = useSuggestions();
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <PendingQuestion history={history} />
      <Thread suggestions={suggestions} notice={<SaveProblem history={history} />} />
    </AssistantRuntimeProvider>
  );
}

type OpenThread = { key: number; choice: ThreadChoice; id: string | null };

let nextKey = 0;
const openNew = (): OpenThread => ({ key: nextKey++, choice: { kind: 'new' }, id: null });
const openExisting = (id: string): OpenThread => ({ key: nextKey++, choice: { kind: 'thread', id }, id });

/**
 * The assistant page: the reader's conversations beside the open one. Deleting or archiving the open conversation
 * switches to the newest regular one, or to a new one (spec section 4).
 */
export default function CopilotPage(): ReactNode {
  const { lists, error, refresh, setError } = useThreadList();
  const [open, setOpen] = useState<OpenThread>(() => ({ key: nextKey++, choice: { kind: 'latest' }, id: null }));
  // What is open now, not when a change was started: the reader may pick another thread while it is saved.
  const openNow = useRef(open);
  openNow.current = open;

  const run = (change: () => Promise<unknown>) =>
    change()
      .then(refresh)
      .catch((failure: unknown) =>
        setError(failure instanceof Error ? failure.message : 'That change could not be saved.'),
      );

  const leave = (thread: ThreadDto, change: () => Promise<unknown>) =>
    run(async () => {
      await change();
      if (openNow.current.id !== thread.id) return;
      const { regular } = await refresh();
      const next = regular.find((candidate) => candidate.id !== thread.id);
      setOpen(next ? openExisting(next.id) : openNew());
    });

  const actions: ThreadActions = {
    open: (thread) => thread.id !== open.id && setOpen(openExisting(thread.id)),
    rename: (thread, title) => void run(() => threadApi.update(thread.id, { title })),
    archive: (thread) => void leave(thread, () => threadApi.update(thread.id, { status: 'archived' })),
    unarchive: (thread) => void run(() => threadApi.update(thread.id, { status: 'regular' })),
    remove: (thread) => void leave(thread, () => threadApi.remove(thread.id)),
  };

  return (
    <div className={styles.page} data-testid="copilot-page">
      <ThreadList
        regular={lists.regular}
        archived={lists.archived}
        currentId={open.id}
        onNew={() => setOpen(openNew())}
        actions={actions}
      />
      <section className={styles.conversation} aria-label="Conversation">
        {error && (
          <p className={styles.pageError} role="alert">
            {error}
          </p>
        )}
        <Conversation
          key={open.key}
          choice={open.choice}
          onThreadKnown={(threadId, how) => {
            setOpen((current) => (current.key === open.key ? { ...current, id: threadId } : current));
            if (how === 'created') void refresh();
          }}
        />
      </section>
    </div>
  );
}
