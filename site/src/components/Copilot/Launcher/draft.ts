/**
 * What the reader typed and attached in the chat's first moments, while its full code was still on the way: the
 * light composer (ShellComposer) writes it here, and the real composer takes it, once, when it mounts. A question
 * sent from the light composer waits here too, and is asked as soon as the conversation on screen is known.
 */
export type QueuedQuestion = { text: string; files: readonly File[] };

export type Draft = {
  text: string;
  selectionStart: number;
  selectionEnd: number;
  files: readonly File[];
  queued: QueuedQuestion | null;
};

const empty: Draft = { text: '', selectionStart: 0, selectionEnd: 0, files: [], queued: null };
let draft = empty;
const listeners = new Set<() => void>();

const notify = () => {
  for (const listener of listeners) listener();
};

export const readDraft = (): Draft => draft;

export function changeDraft(change: Partial<Draft>): void {
  draft = { ...draft, ...change };
  notify();
}

export function subscribeToDraft(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The draft, once, or null when there is nothing in it: whoever takes it owns the text and files from then on. */
export function takeDraft(): Draft | null {
  const taken = draft;
  if (!taken.text && taken.files.length === 0 && !taken.queued) return null;
  draft = empty;
  notify();
  return taken;
}
