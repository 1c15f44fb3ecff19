import { describe, expect, it } from 'vitest';
import { newSessionId, sessionCookieCodec } from './session-cookie.js';

describe('session cookie codec', () => {
  const cookies = sessionCookieCodec('a-secret-for-the-cookie-tests-only');

  it('carries the id and a 128-bit tag, and gives the id back', () => {
    const sessionId = newSessionId();
    const value = cookies.valueOf(sessionId);
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}$/);
    expect(value.startsWith(`${sessionId}.`)).toBe(true);
    expect(cookies.sessionIdOf(value)).toBe(sessionId);
  });

  it('tags the same id the same way under one secret and differently under another', () => {
    const sessionId = newSessionId();
    expect(cookies.valueOf(sessionId)).toBe(
      sessionCookieCodec('a-secret-for-the-cookie-tests-only').valueOf(sessionId),
    );
    expect(sessionCookieCodec('another-secret-of-32-characters!!').sessionIdOf(cookies.valueOf(sessionId))).toBe(
      undefined,
    );
  });

  it.for(['', '.', 'abc', '.abc', 'abc.', 'a.b.c'])('refuses %j', (value) => {
    expect(cookies.sessionIdOf(value)).toBeUndefined();
  });

  it('refuses a tag moved to another id, and every single-character change', () => {
    const sessionId = newSessionId();
    const value = cookies.valueOf(sessionId);
    const tag = value.slice(value.indexOf('.') + 1);
    expect(cookies.sessionIdOf(`${newSessionId()}.${tag}`)).toBeUndefined();
    for (let index = 0; index < value.length; index += 1) {
      if (value[index] === '.') continue;
      const changed = `${value.slice(0, index)}${value[index] === 'x' ? 'y' : 'x'}${value.slice(index + 1)}`;
      expect(cookies.sessionIdOf(changed), changed).toBeUndefined();
    }
  });
});
