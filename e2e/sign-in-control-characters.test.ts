import { expect } from 'vitest';
import { test } from './fixtures';
import { signIn } from './sign-in';

/**
 * An identity provider's claims may hold control characters, NUL among them, which PostgreSQL's text cannot hold: the
 * sign-in is refused as any address outside plain ASCII is, never a 500 (attack review, NUL in the e-mail claim).
 */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

test.for(['you@acme.dev\0', 'y\0ou@gmail.com', 'tab\t@acme.dev'])(
  'refusesAnAddressWithAControlCharacterAsNotPlainAscii: %j',
  async (email, { server }) => {
    const { jar, response } = await signIn(server.baseUrl, { email });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('outside plain ASCII');
    expect(jar.get('acme_session')).toBeUndefined();
  },
);

test('nulDoesNotStripToAnAllowedAddress: the account keeps the refused address, its earlier session refused with it', async ({
  server,
}) => {
  const before = await signIn(server.baseUrl, { email: 'nul.mover@acme.dev', subject: 'S-nul-1' });
  expect(before.response.status).toBe(303);
  const cookie = `acme_session=${before.jar.get('acme_session')}`;

  const refused = await signIn(server.baseUrl, { email: 'nul.mover@acme.dev\0', subject: 'S-nul-1' });
  expect(refused.response.status).toBe(403);

  const me = await fetch(`${server.baseUrl}/api/me`, { headers: { cookie } });
  expect(me.status).toBe(403);
  expect(await me.json()).toMatchObject({ state: 'not-allowed', email: 'nul.mover@acme.dev\uFFFD' });
});
