import { useSyncExternalStore } from 'react';

const hasVoices = () => 'speechSynthesis' in window && window.speechSynthesis.getVoices().length > 0;

function onVoicesChanged(update: () => void) {
  if (!('speechSynthesis' in window)) return () => {};
  window.speechSynthesis.addEventListener('voiceschanged', update);
  return () => window.speechSynthesis.removeEventListener('voiceschanged', update);
}

/**
 * Whether the browser has a voice to read an answer aloud with. A browser may list its voices only after a while
 * (Chromium loads them when first asked and says so with `voiceschanged`); one without any would take Read aloud
 * and say nothing.
 */
export function useCanSpeak(): boolean {
  return useSyncExternalStore(onVoicesChanged, hasVoices, () => false);
}
