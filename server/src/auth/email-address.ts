/**
 * The one rule for comparing e-mail addresses: letters A-Z fold to a-z and nothing else does. JavaScript's
 * `toLowerCase` folds Unicode too, so "\u212Aate@acme.dev" (KELVIN SIGN) would become "kate@acme.dev", another
 * reader's address. Everything that compares or keys on an address uses this, never `toLowerCase`.
 */
export function foldEmail(address: string): string {
  return address.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/**
 * Only printable ASCII (no spaces, controls or anything past "~") is accepted in an address at sign-in. Google
 * Workspace addresses are ASCII, and a look-alike letter is the usual way to pass for someone else.
 */
export function isPlainAsciiAddress(address: string): boolean {
  return /^[\x21-\x7e]+$/.test(address);
}
