import { CopilotError, isSessionEnded } from './copilot-error';

/**
 * Why the server could not create a conversation, for the conversation (the runtime's local thread id) it was for;
 * `sessionEnded` when only a reload can help (sending again would be refused the same way).
 */
export type CreationProblem = { threadId: string; message: string; sessionEnded: boolean };

/**
 * How many threads are being created on the server now, and why the last one could not be. A new chat's first
 * question waits for its thread before its run starts, and in that time the runtime says nothing is running: the
 * composer reads this to keep Enter from sending a second question (it became a branch of its own) and to say that
 * the conversation is starting. When creating fails, assistant-ui takes the question off the thread and puts it back
 * in the composer, and says nothing: the composer reads the problem to tell the reader why, next to the question.
 */
let threadsBeingCreated = 0;
let problem: CreationProblem | null = null;
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

/** The reader's words for a failed creation: the server's (e.g. it could not be reached) when it gave any. */
const messageOf = (error: unknown) =>
  error instanceof CopilotError ? error.message : 'Dev Copilot could not start the conversation. Try again.';

export const threadCreation = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  underway: () => threadsBeingCreated > 0,
  problem: () => problem,
  dismissProblem() {
    problem = null;
    changed();
  },
  /** Creates the thread for `threadId` through `create`, counted while underway; a failure is kept and rethrown. */
  async track<T>(threadId: string, create: () => Promise<T>): Promise<T> {
    threadsBeingCreated += 1;
    problem = null;
    changed();
    try {
      return await create();
    } catch (error) {
      console.error('Dev Copilot could not create a conversation', error);
      problem = { threadId, message: messageOf(error), sessionEnded: isSessionEnded(error) };
      throw error;
    } finally {
      threadsBeingCreated -= 1;
      changed();
    }
  },
};
