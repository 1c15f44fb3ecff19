import { type ComponentPropsWithoutRef, forwardRef } from 'react';
import { launcherShortcut, useShortcutLabel } from './shortcut';
import styles from './styles.module.css';

type Props = ComponentPropsWithoutRef<'button'> & { open?: boolean };

/** The round button at the bottom right; the same element before and after the chat code has loaded. */
export const LauncherButton = forwardRef<HTMLButtonElement, Props>(function LauncherButton(
  { open = false, ...rest },
  ref,
) {
  const shortcut = useShortcutLabel();
  const name = open ? 'Close Dev Copilot' : 'Open Dev Copilot';
  return (
    <button
      type="button"
      ref={ref}
      className={styles.launcher}
      aria-label={name}
      aria-keyshortcuts={launcherShortcut.ariaKeyShortcuts}
      title={`${name} (${shortcut})`}
      data-testid="copilot-launcher"
      {...rest}
    >
      <svg
        width="24"
        height="24"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
      >
        {open ? (
          <path d="M18 6 6 18M6 6l12 12" strokeLinecap="round" />
        ) : (
          <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" strokeLinejoin="round" />
        )}
      </svg>
    </button>
  );
});
