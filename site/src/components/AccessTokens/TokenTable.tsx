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

const columns = ['Name', 'Created', 'Last used', 'Expires'] as const;

/** A date of a token, named on a phone's card; a screen reader has the name from the column's header already. */
function Field(props: { readonly name: (typeof columns)[number]; readonly children: ReactNode }): ReactNode {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: the card's cell stays a cell to every screen reader (see TokenTable)
    <td role="cell">
      <span className={styles.fieldName} aria-hidden="true">
        {props.name}
      </span>
      {props.children}
    </td>
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
  const table = useRef<HTMLTableElement>(null);
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
  // On a phone each row is a card of its own (styles.module.css), its fields one under another with their names.
  // biome-ignore-start lint/a11y/noRedundantRoles: a table laid out as blocks is no table to some browsers' screen readers without its roles written out
  return (
    <table ref={table} role="table" className={styles.tokenTable} data-testid="token-table">
      <caption className={hidden.visuallyHidden}>Your access tokens</caption>
      <thead role="rowgroup">
        <tr role="row">
          {columns.map((column) => (
            <th key={column} role="columnheader" scope="col">
              {column}
            </th>
          ))}
          <th role="columnheader" scope="col">
            <span className={hidden.visuallyHidden}>Actions</span>
          </th>
        </tr>
      </thead>
      <tbody role="rowgroup">
        {props.tokens.map((token) => (
          <tr key={token.id} role="row" data-testid="token-row" data-token={token.id}>
            <td role="cell" className={styles.tokenName}>
              {token.name}
            </td>
            <Field name="Created">{dateFormat.format(new Date(token.createdAt))}</Field>
            <Field name="Last used">
              {token.lastUsedAt ? dateTimeFormat.format(new Date(token.lastUsedAt)) : 'Never'}
            </Field>
            <Field name="Expires">{dateFormat.format(new Date(token.expiresAt))}</Field>
            <td role="cell">
              <RevokeCell token={token} onRevoke={props.onRevoke} revoking={props.revoking === token.id} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  // biome-ignore-end lint/a11y/noRedundantRoles: the table's roles end here
}
