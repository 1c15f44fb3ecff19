/**
 * Whether the conversation list keeps the focus it just moved (a row left the list, and the focus went to the next
 * one) instead of the composer taking it, as it does whenever a conversation opens. Kept until the reader opens or
 * starts a conversation from the list, or goes to the composer.
 */
let kept = false;
const listeners = new Set<() => void>();
const set = (value: boolean) => {
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
