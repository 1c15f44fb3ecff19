import type { CurrentAddress } from '../store/accounts.js';
import { type AccessDecision, type AccessPolicy, decideAccess } from './access-policy.js';

/** A credential's row: the address it was made with, and its account's address at the latest sign-in, if kept. */
type CredentialRow = CurrentAddress & { current: CurrentAddress | null };

const identityOf = (address: CurrentAddress) => ({
  email: address.email,
  emailVerified: address.emailVerified,
  hostedDomain: address.hostedDomain ?? undefined,
});

/**
 * The access policy's decision on a session, token or grant: refused when either its account's current address (the
 * latest sign-in's) or the address it was made with is refused. The first keeps a person whose address changed at the
 * provider and was then blocked out of what they made before; the second keeps a blocked or no longer allowed
 * address from living on under a later one. A new sign-in gives fresh credentials under the current address.
 */
export function decideCredential(policy: AccessPolicy, credential: CredentialRow): AccessDecision {
  const made = decideAccess(policy, identityOf(credential));
  if (!credential.current) return made;
  const current = decideAccess(policy, identityOf(credential.current));
  return current.allowed ? made : current;
}

/** The row as its account is now: the current address in place of the one it was made with, for showing and copying. */
export function withCurrentAddress<Row extends CredentialRow>(row: Row): Omit<Row, 'current'> {
  const { current, ...made } = row;
  return current ? { ...made, ...current } : made;
}
