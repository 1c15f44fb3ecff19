type Listener = (message: string) => void;
const listeners = new Set<Listener>();

/** Tells whoever shows problems (SaveProblem) that something the reader did could not be saved. */
export function reportProblem(error: unknown) {
  console.error('Dev Copilot could not save a change', error);
  const reason = error instanceof Error ? error.message : 'the server did not answer';
  for (const listener of listeners) listener(reason);
}

/** Calls `listener` with a reader-facing reason whenever a change could not be saved; returns the unsubscriber. */
export function onProblem(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
