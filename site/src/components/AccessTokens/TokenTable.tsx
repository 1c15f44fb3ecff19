import { type ReactNode, useEffect, useRef, useState } from 'react';
import hidden from '../../css/visually-hidden.module.css';
import ConfirmChoice from '../ConfirmChoice';
import { useFocusReturn } from '../ConfirmChoice/useFocusReturn';
import styles from './styles.module.css';
import type { PersonalToken } from './tokens-api';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A token's Revoke button, which asks first: a revoked token cannot be had back, and every agent using it stops. */
function RevokeCell(props: {
  readonly token: PersonalToken;
  readonly onRevoke: (token: PersonalToken) => void;
  readonly revoking: boolean;
}): ReactNode {
  const [confirming, setConfirming] = useState(false);
  const opener = useFocusReturn();
  const { token } = props;
  return confirming ? (
    <ConfirmChoice
      question="Revoke for good? Agents using it stop working."
      confirmLabel="Yes, revoke"
      confirmName={`Yes, revoke ${token.name}`}
      onConfirm={() => props.onRevoke(token)}
      onKeep={() => setConfirming(false)}
      opener={opener}
      busy={props.revoking}
      className={styles.confirm}
      confirmClassName="button button--danger button--sm"
      keepClassName="button button--secondary button--sm"
    />
  ) : (
    <button
      ref={opener.ref}
      type="button"
      className="button button--secondary button--sm"
      aria-label={`Revoke ${token.name}`}
      data-revoke
      onClick={() => setConfirming(true)}
    >
      Revoke
    </button>
  );
}

/**
 * The reader's tokens: name, created, last used, expiry, and a Revoke button each. After a revoke (`lastRevoked`, with
 * the token now in its row's place, or the one above) the focus goes to that token's Revoke button, or to its Keep if
 * it is asking "Revoke for good?", or to the line saying no token is left, so a keyboard is never sent back to the top
 * of the page.
 */
export default function TokenTable(props: {
  readonly tokens: readonly PersonalToken[];
  readonly onRevoke: (token: PersonalToken) => void;
  readonly revoking: string | undefined;
  readonly lastRevoked: { readonly next: string | undefined } | undefined;
}): ReactNode {
  const table = useRef<HTMLElement>(null);
  const none = useRef<HTMLParagraphElement>(null);
  const { lastRevoked } = props;
  useEffect(() => {
    if (!lastRevoked) return;
    // Found by the token, not by counting Revoke buttons: a row asking "Revoke for good?" has none.
    const row = lastRevoked.next && table.current?.querySelector(`tr[data-token="${CSS.escape(lastRevoked.next)}"]`);
    const button = row ? row.querySelector<HTMLElement>('button[data-revoke], button[data-keep]') : none.current;
    button?.focus();
  }, [lastRevoked]);
  if (props.tokens.length === 0) {
    return (
      <p data-testid="no-tokens" ref={none} tabIndex={-1}>
        You have no access tokens.
      </p>
    );
  }
  // On a phone the table can be wider than the screen (a last use shows its date and time): it scrolls in a box of
  // its own, which the keyboard can reach, rather than the whole page scrolling sideways.
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable to scroll by keyboard
    <section ref={table} className={styles.tableBox} aria-label="Your access tokens" tabIndex={0}>
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
            <tr key={token.id} data-testid="token-row" data-token={token.id}>
              <td>{token.name}</td>
              <td>{dateFormat.format(new Date(token.createdAt))}</td>
              <td>{token.lastUsedAt ? dateTimeFormat.format(new Date(token.lastUsedAt)) : 'Never'}</td>
              <td>{dateFormat.format(new Date(token.expiresAt))}</td>
              <td>
                <RevokeCell token={token} onRevoke={props.onRevoke} revoking={props.revoking === token.id} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
