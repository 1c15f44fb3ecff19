import { type ReactNode, useState } from 'react';
import styles from './styles.module.css';
import type { CreatedToken } from './tokens-api';

/**
 * The new token, shown this once, with a button that copies it, and the command that adds the handbook to Claude Code
 * with it (the README lists the other agents), ready to paste once the token is in the environment.
 */
export default function CreatedTokenNotice({ created }: { readonly created: CreatedToken }): ReactNode {
  const [copied, setCopied] = useState<'no' | 'yes' | 'command' | 'failed'>('no');
  const copy = (text: string, what: 'yes' | 'command') =>
    navigator.clipboard.writeText(text).then(
      () => setCopied(what),
      () => setCopied('failed'),
    );
  // Shown only once a token is made, in the browser: the page's own address is the handbook's. The token is read from
  // the environment, so that it stays out of the shell's history.
  const command = `claude mcp add --transport http acme-handbook ${window.location.origin}/mcp --header "Authorization: Bearer $ACME_HANDBOOK_TOKEN"`;
  return (
    <div className="alert alert--success margin-vert--md" data-testid="created-token">
      <p>
        <strong>{created.name}</strong> is ready. Copy it now: it is shown only this once.
      </p>
      <div className={styles.tokenRow}>
        <code className={styles.token} data-testid="created-token-value">
          {created.token}
        </code>
        <button
          type="button"
          className="button button--primary button--sm"
          onClick={() => void copy(created.token, 'yes')}
        >
          Copy token
        </button>
      </div>
      <details>
        <summary>Add the handbook to Claude Code with it</summary>
        <p className={styles.setupHint}>
          Keep the token in the <code>ACME_HANDBOOK_TOKEN</code> environment variable (your shell profile, or your
          password manager's command line), then run:
        </p>
        <pre className={styles.setup} data-testid="created-token-command">
          <code>{command}</code>
        </pre>
        <button
          type="button"
          className="button button--secondary button--sm"
          onClick={() => void copy(command, 'command')}
        >
          Copy command
        </button>
      </details>
      <p role="status" className={styles.copyStatus}>
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'command'
            ? 'Command copied: paste it into a terminal.'
            : copied === 'failed'
              ? 'Copy failed: select the text and copy it.'
              : ''}
      </p>
    </div>
  );
}
