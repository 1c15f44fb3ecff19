import type { KeyboardEvent, ReactNode } from 'react';
import type { FocusReturn } from './useFocusReturn';

/**
 * An irreversible action asked again in place of its button: the question, the action named once more, and Keep, which
 * takes the focus (the button just pressed is gone, and the safe choice is the one a stray Enter should make). Escape
 * keeps too. Keep and Escape give the focus back to `opener`, when given; after the action, the caller moves the focus
 * (the row it was about may be gone).
 */
export default function ConfirmChoice(props: {
  readonly question: string;
  /** The action's button, e.g. "Yes, delete". */
  readonly confirmLabel: string;
  /** Its accessible name when several rows ask the same question, e.g. "Yes, delete Release checklist". */
  readonly confirmName?: string;
  readonly onConfirm: () => void;
  readonly onKeep: () => void;
  /** The button that opened the choice (`useFocusReturn`), which takes the focus back on Keep and Escape. */
  readonly opener?: FocusReturn;
  readonly busy?: boolean;
  readonly className?: string;
  readonly confirmClassName: string;
  readonly keepClassName: string;
}): ReactNode {
  const keep = () => {
    props.opener?.returnFocus();
    props.onKeep();
  };
  const keepOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    // Escape answers this question only: a panel around it stays open.
    event.stopPropagation();
    keep();
  };
  return (
    <span className={props.className}>
      <span>{props.question}</span>
      <button
        type="button"
        className={props.confirmClassName}
        aria-label={props.confirmName}
        disabled={props.busy}
        onClick={props.onConfirm}
        onKeyDown={keepOnEscape}
      >
        {props.confirmLabel}
      </button>
      <button
        type="button"
        className={props.keepClassName}
        onClick={keep}
        onKeyDown={keepOnEscape}
        data-keep
        // biome-ignore lint/a11y/noAutofocus: the button just pressed is gone; the safe choice takes the focus
        autoFocus
      >
        Keep
      </button>
    </span>
  );
}
