let pending = 0;

/** While a write is unsaved the browser asks before the page is left, as editors do: leaving would drop it. */
function confirmLeaving(event: BeforeUnloadEvent) {
  event.preventDefault();
  // Older browsers ask only when returnValue is set.
  event.returnValue = true;
}

function setSaving(saving: boolean) {
  if (saving) {
    window.addEventListener('beforeunload', confirmLeaving);
    document.documentElement.dataset.copilotSaving = 'true';
  } else {
    window.removeEventListener('beforeunload', confirmLeaving);
    delete document.documentElement.dataset.copilotSaving;
  }
}

/**
 * Marks a conversation write as unsaved until it settles. A reply waits for its question to be saved, so a reader who
 * reloads the moment an answer ends would otherwise lose the answer; `data-copilot-saving` on <html> says it is pending.
 */
export function trackUnsaved<T>(write: Promise<T>): Promise<T> {
  if (pending++ === 0) setSaving(true);
  const settle = () => {
    if (--pending === 0) setSaving(false);
  };
  write.then(settle, settle);
  return write;
}
