import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import hidden from '../../css/visually-hidden.module.css';
import { useCopiedState } from '../Copilot/view/useCopiedState';
import { type EditorSetup, editorSetups } from './editor-setup';
import styles from './styles.module.css';
import type { CreatedToken } from './tokens-api';

/** What the status line says after a copy: the token, a setup (by its editor), or that the clipboard refused. */
type Copied = { what: 'token' } | { what: 'setup'; setup: EditorSetup } | { what: 'failed' } | null;

/** What the status line shows after copying a setup, or that the clipboard refused; the token's copy is below. */
function copiedText(copied: Copied): string {
  if (!copied || copied.what === 'token') return '';
  if (copied.what === 'failed') return 'Copy failed: select the text and copy it.';
  return `${copied.setup.editor} configuration copied: paste it into its file.`;
}

/**
 * The new token, shown this once, with a button that copies it, and how to add the handbook to Claude Code, Cursor
 * and VS Code with it (README.md's "Use the handbook from your editor"), ready to paste. Each new token (the notice is
 * keyed by it) puts the focus on its Copy button, described by "shown only this once": the form's button, just
 * pressed, has nothing more to do.
 */
export default function CreatedTokenNotice({ created }: { readonly created: CreatedToken }): ReactNode {
  const [copied, setCopied] = useState<Copied>(null);
  const [tokenCopied, markTokenCopied] = useCopiedState();
  const copyButton = useRef<HTMLButtonElement>(null);
  const readyId = useId();
  useEffect(() => copyButton.current?.focus(), []);
  const copy = (text: string, done: Copied, then?: () => void) =>
    navigator.clipboard.writeText(text).then(
      () => {
        setCopied(done);
        then?.();
      },
      () => setCopied({ what: 'failed' }),
    );
  // Shown only once a token is made, in the browser: the page's own address is the handbook's.
  const setups = editorSetups(window.location.origin);
  return (
    <div className="alert alert--success margin-vert--md" data-testid="created-token">
      <p id={readyId}>
        <strong>{created.name}</strong> is ready. Copy it now: it is shown only this once.
      </p>
      <div className={styles.tokenRow}>
        <code className={styles.token} data-testid="created-token-value">
          {created.token}
        </code>
        <button
          ref={copyButton}
          type="button"
          className="button button--primary button--sm"
          aria-describedby={readyId}
          onClick={() => void copy(created.token, { what: 'token' }, markTokenCopied)}
        >
          {tokenCopied ? 'Copied' : 'Copy token'}
        </button>
      </div>
      {setups.map((setup) => (
        <details key={setup.editor} className={styles.setupChoice}>
          <summary>Add the handbook to {setup.editor} with it</summary>
          <p className={styles.setupHint}>{setup.hint}</p>
          <pre className={styles.setup} data-testid={setup.testId}>
            <code>{setup.text}</code>
          </pre>
          <button
            type="button"
            className="button button--secondary button--sm"
            aria-label={`Copy the ${setup.editor} configuration`}
            onClick={() => void copy(setup.text, { what: 'setup', setup })}
          >
            Copy configuration
          </button>
        </details>
      ))}
      <p role="status" className={styles.copyStatus}>
        {copiedText(copied)}
        {/* The button already shows "Copied" where the reader looks: the status only says it to screen readers, for
            as long as the button does (useCopiedState), then empties, so the next copy is said again. */}
        {copied?.what === 'token' && tokenCopied && <span className={hidden.visuallyHidden}>Token copied</span>}
      </p>
    </div>
  );
}
