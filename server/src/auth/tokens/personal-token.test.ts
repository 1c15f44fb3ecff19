import { describe, expect, it } from 'vitest';
import { mintPersonalToken, parsePersonalToken, secretMatches } from './personal-token.js';

describe('personal access tokens', () => {
  it('mints tokens with the recognisable prefix that parse back to their id and match their stored hash', () => {
    const minted = mintPersonalToken();
    expect(minted.token).toMatch(/^acme_pat_[\w-]{59}$/);
    const parsed = parsePersonalToken(minted.token);
    expect(parsed?.id).toBe(minted.id);
    expect(secretMatches(parsed?.secret ?? '', minted.secretHash)).toBe(true);
  });

  it('never mints the same token twice and never stores the secret itself', () => {
    const tokens = Array.from({ length: 200 }, () => mintPersonalToken());
    expect(new Set(tokens.map((minted) => minted.token)).size).toBe(200);
    for (const minted of tokens) expect(minted.token).not.toContain(minted.secretHash);
  });

  it('refusesATokenWithOneSecretCharacterChanged', () => {
    const minted = mintPersonalToken();
    const last = minted.token.at(-1) === 'A' ? 'B' : 'A';
    const parsed = parsePersonalToken(`${minted.token.slice(0, -1)}${last}`);
    expect(parsed).toBeDefined();
    expect(secretMatches(parsed?.secret ?? '', minted.secretHash)).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['another prefix', `ghp_${'a'.repeat(64)}`],
    ['one character short', mintPersonalToken().token.slice(0, -1)],
    ['one character long', `${mintPersonalToken().token}a`],
    ['a NUL inside', `acme_pat_${'a'.repeat(30)}\0${'a'.repeat(28)}`],
    ['spaces inside', `acme_pat_${'a'.repeat(30)} ${'a'.repeat(28)}`],
  ])('does not take %s for a token', (_case, token) => {
    expect(parsePersonalToken(token)).toBeUndefined();
  });
});
