import { type ReactNode, useState } from 'react';
import styles from './styles.module.css';
import type { CreatedToken } from './tokens-api';

/** The new token, shown this once, with a button that copies it. */
export default function CreatedTokenNotice({ created }: { readonly created: CreatedToken }): ReactNode {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const copy = () =>
    navigator.clipboard.writeText(created.token).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <div className="alert alert--success margin-vert--md" data-testid="created-token">
      <p>
        <strong>{created.name}</strong> is ready. Copy it now: it is shown only this once.
      </p>
      <div className={styles.tokenRow}>
        <code className={styles.token} data-testid="created-token-value">
          {created.token}
        </code>
        <button type="button" className="button button--primary button--sm" onClick={() => void copy()}>
          Copy token
        </button>
      </div>
      <p role="status" className={styles.copyStatus}>
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'Copy failed: select the token and copy it.'
            : ''}
      </p>
    </div>
  );
}
