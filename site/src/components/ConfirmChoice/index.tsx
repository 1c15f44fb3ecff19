import type { ReactNode } from 'react';

/**
 * An irreversible action asked again in place of its button: the question, the action named once more, and Keep, which
 * takes the focus (the button just pressed is gone, and the safe choice is the one a stray Enter should make).
 */
export default function ConfirmChoice(props: {
  readonly question: string;
  /** The action's button, e.g. "Yes, delete". */
  readonly confirmLabel: string;
  /** Its accessible name when several rows ask the same question, e.g. "Yes, delete Release checklist". */
  readonly confirmName?: string;
  readonly onConfirm: () => void;
  readonly onKeep: () => void;
  readonly busy?: boolean;
  readonly className?: string;
  readonly confirmClassName: string;
  readonly keepClassName: string;
}): ReactNode {
  return (
    <span className={props.className}>
      <span>{props.question}</span>
      <button
        type="button"
        className={props.confirmClassName}
        aria-label={props.confirmName}
        disabled={props.busy}
        onClick={props.onConfirm}
      >
        {props.confirmLabel}
      </button>
      <button
        type="button"
        className={props.keepClassName}
        onClick={props.onKeep}
        // biome-ignore lint/a11y/noAutofocus: the button just pressed is gone; the safe choice takes the focus
        autoFocus
      >
        Keep
      </button>
    </span>
  );
}
