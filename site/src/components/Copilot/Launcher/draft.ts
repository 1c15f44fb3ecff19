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

/**
 * The text and files, once, or null when there are none: whoever takes them owns them from then on. A queued
 * question stays until `takeQueuedQuestion`: the one who asks it may not be ready when it takes the text.
 */
export function takeDraft(): Pick<Draft, 'text' | 'selectionStart' | 'selectionEnd' | 'files'> | null {
  const taken = draft;
  if (!taken.text && taken.files.length === 0) return null;
  draft = { ...empty, queued: taken.queued };
  notify();
  return taken;
}

/** The question sent from the light composer, once. */
export function takeQueuedQuestion(): QueuedQuestion | null {
  const { queued } = draft;
  if (queued) changeDraft({ queued: null });
  return queued;
}
