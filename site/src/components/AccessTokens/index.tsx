import { type FormEvent, type ReactNode, useCallback, useEffect, useState } from 'react';
import CreatedTokenNotice from './CreatedTokenNotice';
import styles from './styles.module.css';
import TokenTable from './TokenTable';
import {
  type CreatedToken,
  createToken,
  defaultTokenLifetimeDays,
  listTokens,
  maxTokenNameCharacters,
  type PersonalToken,
  revokeToken,
} from './tokens-api';

const lifetimes = [7, defaultTokenLifetimeDays, 90, 180, 365];

/** The reader's personal access tokens: make one (shown once), see them, revoke them. */
export default function AccessTokens(): ReactNode {
  const [tokens, setTokens] = useState<PersonalToken[] | undefined>();
  const [created, setCreated] = useState<CreatedToken | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [revoking, setRevoking] = useState<string | undefined>();
  // The token revoked last, and the one now in its row's place (or the row above), which takes the focus.
  const [revoked, setRevoked] = useState<{ name: string; next: string | undefined } | undefined>();
  const [name, setName] = useState('');
  const [days, setDays] = useState(defaultTokenLifetimeDays);

  const refresh = useCallback(
    () =>
      listTokens().then(
        (listed) => {
          setTokens(listed);
          return listed;
        },
        (error: unknown) => {
          setTokens([]);
          setProblem((error as Error).message);
          return [];
        },
      ),
    [],
  );
  useEffect(() => void refresh(), [refresh]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    setRevoked(undefined);
    try {
      setCreated(await createToken({ name, expiresInDays: days }));
      setName('');
      await refresh();
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function revoke(token: PersonalToken) {
    setRevoking(token.id);
    setProblem(undefined);
    // Emptied while the revoke is under way, so a second "<name> revoked." (two tokens of one name) is said again.
    setRevoked(undefined);
    try {
      await revokeToken(token.id);
      if (created?.id === token.id) setCreated(undefined);
      const row = tokens?.findIndex((listed) => listed.id === token.id) ?? 0;
      const left = await refresh();
      setRevoked({ name: token.name, next: (left[row] ?? left[row - 1])?.id });
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setRevoking(undefined);
    }
  }

  return (
    <>
      <h2>New token</h2>
      <form className={styles.form} onSubmit={(event) => void submit(event)} data-testid="new-token-form">
        <div className={styles.field}>
          <label htmlFor="token-name">Name</label>
          <input
            id="token-name"
            required
            maxLength={maxTokenNameCharacters}
            placeholder="Claude Code on my laptop"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className={styles.field}>
          <label htmlFor="token-lifetime">Expires after</label>
          <select id="token-lifetime" value={days} onChange={(event) => setDays(Number(event.target.value))}>
            {lifetimes.map((lifetime) => (
              <option key={lifetime} value={lifetime}>
                {lifetime === 365 ? '1 year' : `${lifetime} days`}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button--primary" disabled={busy}>
          Create token
        </button>
      </form>
      <div role="alert">{problem && <p className="alert alert--danger margin-vert--md">{problem}</p>}</div>
      {created && <CreatedTokenNotice key={created.id} created={created} />}
      <h2 className={styles.tokensHeading}>Your tokens</h2>
      {tokens === undefined ? (
        <p role="status">Loading your tokens…</p>
      ) : (
        <TokenTable
          tokens={tokens}
          revoking={revoking}
          onRevoke={(token) => void revoke(token)}
          lastRevoked={revoked}
        />
      )}
      {/* The revoked row is gone and the focus has moved on: this says what happened. */}
      <div role="status" data-testid="token-status">
        {revoked && `${revoked.name} revoked.`}
      </div>
    </>
  );
}
