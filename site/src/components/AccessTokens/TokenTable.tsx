import { type ReactNode, useState } from 'react';
import hidden from '../../css/visually-hidden.module.css';
import ConfirmChoice from '../ConfirmChoice';
import styles from './styles.module.css';
import type { PersonalToken } from './tokens-api';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The reader's tokens: name, created, last used, expiry, and a Revoke button each, which asks first: a revoked token
 * cannot be had back, and every agent that uses it stops working.
 */
export default function TokenTable(props: {
  readonly tokens: readonly PersonalToken[];
  readonly onRevoke: (token: PersonalToken) => void;
  readonly revoking: string | undefined;
}): ReactNode {
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  if (props.tokens.length === 0) return <p data-testid="no-tokens">You have no access tokens.</p>;
  return (
    <table data-testid="token-table">
      <caption className={hidden.visuallyHidden}>Your access tokens</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">Expires</th>
          <th scope="col">
            <span className={hidden.visuallyHidden}>Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.tokens.map((token) => (
          <tr key={token.id} data-testid="token-row">
            <td>{token.name}</td>
            <td>{dateFormat.format(new Date(token.createdAt))}</td>
            <td>{token.lastUsedAt ? dateTimeFormat.format(new Date(token.lastUsedAt)) : 'Never'}</td>
            <td>{dateFormat.format(new Date(token.expiresAt))}</td>
            <td>
              {confirming === token.id ? (
                <ConfirmChoice
                  question="Revoke for good? Agents using it stop working."
                  confirmLabel="Yes, revoke"
                  confirmName={`Yes, revoke ${token.name}`}
                  onConfirm={() => props.onRevoke(token)}
                  onKeep={() => setConfirming(undefined)}
                  busy={props.revoking === token.id}
                  className={styles.confirm}
                  confirmClassName="button button--danger button--sm"
                  keepClassName="button button--secondary button--sm"
                />
              ) : (
                <button
                  type="button"
                  className="button button--secondary button--sm"
                  aria-label={`Revoke ${token.name}`}
                  onClick={() => setConfirming(token.id)}
                >
                  Revoke
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
