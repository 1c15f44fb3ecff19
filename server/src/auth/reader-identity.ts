import { foldEmail } from './email-address.js';

/** Who a session belongs to, as the identity provider says it: its issuer and the account's `sub` claim. */
export type ReaderSubject = { issuer: string; subject: string };

/**
 * The key Dev Copilot owns threads, messages, feedback, logged questions and limits under: the issuer and subject,
 * which stay the same for one account when its e-mail address changes and are never reused for another account. The
 * e-mail is kept only for the access policy and for display.
 */
export function readerKeyOf({ issuer, subject }: ReaderSubject): string {
  return `oidc:${issuer}#${subject}`;
}

/**
 * The key rows written before subjects were kept carry (migration 0006): the address as it was stored then. No
 * subject's key starts with `email:`. Sign-in hands such rows to the subject whose folded address equals it exactly
 * (claimLegacyReaderRows); since only plain ASCII addresses sign in, the Kelvin sign cannot claim "kate@..." rows.
 */
export function legacyReaderKey(email: string): string {
  return `email:${foldEmail(email)}`;
}

/** What the identity provider said of an account at sign-in, as a session holds it. */
type SignedInAccount = ReaderSubject & { email: string; emailVerified: boolean; hostedDomain: string | null };

/**
 * The identity a grant made in a session carries (a personal token, an OAuth code and the access it gives): whose
 * rows it reads, and what the access policy is applied to again on every use.
 */
export function identityOf(account: SignedInAccount) {
  return {
    reader: readerKeyOf(account),
    issuer: account.issuer,
    subject: account.subject,
    email: account.email,
    emailVerified: account.emailVerified,
    hostedDomain: account.hostedDomain,
  };
}
