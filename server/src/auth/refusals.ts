import type { AccessDecision } from './access-policy.js';
import { escapeHtml } from './html.js';

/** Which rule kept a signed-in account out. */
export type AccessRefusal = Extract<AccessDecision, { allowed: false }>['reason'];

/** The rule and what to do about it, for a refusal the reader can act on; `{account}` is the address, in bold. */
const refusalTexts: Record<AccessRefusal, string> = {
  'email-not-verified':
    'You are signed in as {account}, but Google has not verified that this address belongs to the account, so it cannot be let in. Sign in with your company Google account, or verify the address in your Google account and try again.',
  'hosted-domain-missing':
    'You are signed in as {account} with a personal Google account that uses a company address. Only accounts the company manages are let in: choose your company account with "Use another account".',
  'hosted-domain-mismatch':
    'You are signed in as {account} through a Google organisation that is not the company’s. Only accounts the company manages are let in: choose your company account with "Use another account".',
  'not-on-allow-list':
    'You are signed in as {account}, whose domain is not allowed to read the handbook. Choose your company account with "Use another account".',
  blocked:
    'You are signed in as {account}, which may no longer read the handbook. If you should, ask the docs maintainers.',
  'malformed-email':
    'You are signed in as {account}, which is not an e-mail address the handbook can check. Choose your company account with "Use another account".',
};

/**
 * The refusal as HTML: which rule failed and what to do, naming no domain or address beyond what the page already
 * says (the two primary domains), so the allow-list does not leak.
 */
export function refusalHtml(refusal: AccessRefusal, email: string): string {
  const [before = '', after = ''] = escapeHtml(refusalTexts[refusal]).split('{account}');
  return `${before}<strong>${escapeHtml(email)}</strong>${after}`;
}

/** A refusal by the account's kind, not its domain: the domain is right, the account is not the company's own. */
export function needsCompanyManagedAccount(refusal: AccessRefusal): boolean {
  return (
    refusal === 'email-not-verified' || refusal === 'hosted-domain-missing' || refusal === 'hosted-domain-mismatch'
  );
}

/**
 * The refusal the page gives: a refusal by the kind of account ("a personal Google account that uses a company
 * address") would confirm that the address's domain is on the allow-list, so at a domain the page does not name it
 * reads as a domain not on the list. Only the two primary domains, named anyway, are told the rule itself. (A missing
 * verification is checked before any domain, so it confirms nothing.)
 */
export function refusalShown(refusal: AccessRefusal, email: string, primaryDomains: readonly string[]): AccessRefusal {
  if (refusal !== 'hosted-domain-missing' && refusal !== 'hosted-domain-mismatch') return refusal;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return primaryDomains.includes(domain) ? refusal : 'not-on-allow-list';
}
