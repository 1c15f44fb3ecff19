import { useSyncExternalStore } from 'react';
import { type Draft, readDraft, subscribeToDraft } from './draft';

/** The draft of the chat's first moments, as it changes. */
export function useDraft(): Draft {
  return useSyncExternalStore(subscribeToDraft, readDraft, readDraft);
}
