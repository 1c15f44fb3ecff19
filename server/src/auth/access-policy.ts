import { foldEmail, isPlainAsciiAddress } from './email-address.js';

export type AccessPolicy = {
  /** Allowed e-mail domains, lower-case, in order; the first two are the "primary" ones named on the gate. */
  domains: readonly string[];
  /** Individually allowed addresses, lower-case. */
  addresses: readonly string[];
  /** When true, a subdomain of an allowed domain (x@eng.acme.dev) is allowed too. Default false. */
  allowSubdomains: boolean;
  /** When true, a grant by domain also needs the ID token's `hd` claim to be one of the allowed domains (Google Workspace). */
  requireHostedDomain: boolean;
  /** The allowed readers who also see the insights page (MAINTAINERS), lower-case. */
  maintainers: readonly string[];
  /**
   * Addresses refused whatever else allows them, lower-case (ACCESS_BLOCKED_ADDRESSES): someone who left, on a domain
   * that stays allowed. Their sessions, personal tokens and agents' access stop on the next request.
   */
  blocked: readonly string[];
};

export type Identity = { email: string; emailVerified: boolean; hostedDomain?: string | undefined };

export type AccessDecision =
  | { allowed: true; reason: 'domain' | 'address' }
  | {
      allowed: false;
      reason:
        | 'email-not-verified'
        | 'malformed-email'
        | 'hosted-domain-missing'
        | 'hosted-domain-mismatch'
        | 'not-on-allow-list'
        | 'blocked';
    };

/** ASCII labels only: a look-alike (Cyrillic "а", fullwidth "ａ") is a different domain and must never match. */
const domainLabel = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const domainName = new RegExp(`^${domainLabel}(?:\\.${domainLabel})+$`);

/** Splits an address into its lower-cased form and domain, or undefined when it is not exactly `local@domain`. */
function parseAddress(text: string): { address: string; domain: string } | undefined {
  const parts = text.split('@');
  if (parts.length !== 2) return undefined;
  const [localPart = '', domainPart = ''] = parts;
  const domain = foldEmail(domainPart);
  // Printable ASCII only: nothing invisible, and no look-alike letter (a Cyrillic a, the Kelvin sign) in a local part.
  if (localPart === '' || !isPlainAsciiAddress(localPart) || !domainName.test(domain)) return undefined;
  return { address: `${foldEmail(localPart)}@${domain}`, domain };
}

function domainIsAllowed(policy: AccessPolicy, domain: string): boolean {
  return policy.domains.some(
    (allowed) => domain === allowed || (policy.allowSubdomains && domain.endsWith(`.${allowed}`)),
  );
}

/** Whether this identity may read the handbook under this policy; the reason says which rule decided. */
export function decideAccess(policy: AccessPolicy, identity: Identity): AccessDecision {
  if (identity.emailVerified !== true) return { allowed: false, reason: 'email-not-verified' };
  const parsed = parseAddress(identity.email);
  if (!parsed) return { allowed: false, reason: 'malformed-email' };
  if (policy.blocked.includes(parsed.address)) return { allowed: false, reason: 'blocked' };
  if (policy.addresses.includes(parsed.address)) return { allowed: true, reason: 'address' };
  if (!domainIsAllowed(policy, parsed.domain)) return { allowed: false, reason: 'not-on-allow-list' };
  if (policy.requireHostedDomain) {
    if (!identity.hostedDomain) return { allowed: false, reason: 'hosted-domain-missing' };
    if (!policy.domains.includes(foldEmail(identity.hostedDomain))) {
      return { allowed: false, reason: 'hosted-domain-mismatch' };
    }
  }
  return { allowed: true, reason: 'domain' };
}

/** Whether this identity is a docs maintainer: allowed to read, and its address exactly on the maintainers' list. */
export function isMaintainer(policy: AccessPolicy, identity: Identity): boolean {
  if (!decideAccess(policy, identity).allowed) return false;
  const parsed = parseAddress(identity.email);
  return parsed !== undefined && policy.maintainers.includes(parsed.address);
}

function listEntries(list: string): string[] {
  return list.split(/[\s,]+/).filter((entry) => entry !== '');
}

/** Reads the comma- or space-separated lists of the configuration; a bad entry throws an error that names it. */
export function parseAccessPolicy(input: {
  domains: string;
  addresses: string;
  allowSubdomains?: boolean;
  requireHostedDomain?: boolean;
  maintainers?: string;
  blocked?: string;
}): AccessPolicy {
  const domains = listEntries(input.domains).map((entry) => {
    const domain = foldEmail(entry);
    if (!domainName.test(domain)) {
      throw new Error(`${JSON.stringify(entry)} is not a domain: use letters, digits, hyphens and dots, like acme.dev`);
    }
    return domain;
  });
  const addresses = parseAddresses(input.addresses);
  const maintainers = parseAddresses(input.maintainers ?? '');
  const blocked = parseAddresses(input.blocked ?? '');
  const distinctDomains = [...new Set(domains)];
  if (distinctDomains.length < 2) {
    throw new Error(
      `at least two domains are needed (the first two are named on the sign-in page), got ${distinctDomains.length}`,
    );
  }
  return {
    domains: distinctDomains,
    addresses: [...new Set(addresses)],
    allowSubdomains: input.allowSubdomains ?? false,
    requireHostedDomain: input.requireHostedDomain ?? false,
    maintainers: [...new Set(maintainers)],
    blocked: [...new Set(blocked)],
  };
}

function parseAddresses(list: string): string[] {
  return listEntries(list).map((entry) => {
    const parsed = parseAddress(entry);
    if (!parsed) {
      throw new Error(`${JSON.stringify(entry)} is not an e-mail address: it needs one @ between a name and a domain`);
    }
    return parsed.address;
  });
}

/** The two domains named on the gate. */
export function primaryDomains(policy: AccessPolicy): [string, string] | string[] {
  return policy.domains.slice(0, 2);
}
