import { useEffect, useState } from 'react';

/**
 * Ctrl+I (⌘I on a Mac) opens and closes Dev Copilot from anywhere, as "Ask AI" does in many docs sites and editors;
 * Ctrl/Cmd+K stays the search's. Chromium and Safari give Ctrl/⌘+I no job on a page; Firefox's Page Info yields.
 */
export const launcherShortcut = { key: 'i', ariaKeyShortcuts: 'Control+I Meta+I' } as const;

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export const isLauncherShortcut = (event: KeyboardEvent) =>
  (event.ctrlKey || event.metaKey) &&
  !event.altKey &&
  !event.shiftKey &&
  event.key?.toLowerCase() === launcherShortcut.key;

/** "Ctrl+I", or "⌘I" on a Mac (known only in the browser, so the first render says Ctrl+I). */
export function useShortcutLabel(): string {
  const [label, setLabel] = useState('Ctrl+I');
  useEffect(() => {
    if (isMac()) setLabel('⌘I');
  }, []);
  return label;
}

/** Calls `action` on the shortcut, wherever the focus is. */
export function useLauncherShortcut(action: () => void) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isLauncherShortcut(event)) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [action]);
}
