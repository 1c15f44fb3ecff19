/**
 * Whether the conversation list keeps the focus it just moved (a row left the list, and the focus went to the next
 * one) instead of the composer taking it, as it does whenever a conversation opens. Kept until the reader opens or
 * starts a conversation from the list, or goes to the composer, and at most a few seconds: long enough for the next
 * conversation to open, never so long that a chat opened later finds its composer without the cursor.
 */
const keptAtMostMs = 3000;

let kept = false;
let expiry: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();
const set = (value: boolean) => {
  clearTimeout(expiry);
  expiry = value ? setTimeout(() => set(false), keptAtMostMs) : undefined;
  if (kept === value) return;
  kept = value;
  for (const listener of listeners) listener();
};

export const listFocus = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  kept: () => kept,
  keep: () => set(true),
  release: () => set(false),
};
