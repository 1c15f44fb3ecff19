import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { test } from './fixtures';

/**
 * A file of the build rewritten in place (same name, as many bytes, its modification time set back, as `cp -p`, `tar
 * -x` or a reproducible build leaves it): once the server has seen the change, it serves the new bytes under a new
 * etag, so no browser or proxy keeps the old ones. A large file is streamed from disk, a small one held in memory.
 */
const site = mkdtempSync(path.join(tmpdir(), 'file-replaced-'));
const builtAt = 1_700_000_000;
const write = (relative: string, bytes: Buffer) => {
  const file = path.join(site, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  utimesSync(file, builtAt, builtAt);
};
write('index.html', Buffer.from('<!doctype html><title>Home</title><p>home page'));
write('404.html', Buffer.from('<!doctype html><title>Page Not Found</title>'));
/** Past the 2 MB a file may hold in memory, and small enough to be held. */
const sizes = { '/img/diagram.png': 3 * 1024 * 1024, '/img/logo.png': 4096 };
for (const [urlPath, size] of Object.entries(sizes)) write(urlPath, Buffer.alloc(size, 'a'));
test.override({ serverEnvironment: { SITE_DIR: site }, readerEmail: 'replaced@acme.dev' });
afterAll(() => rmSync(site, { recursive: true, force: true }));

describe('a file of the build rewritten in place', { timeout: 60_000 }, () => {
  test.for(Object.entries(sizes))(
    '%s gets a new etag and its new bytes',
    async ([urlPath, size], { server, sessionCookie }) => {
      const get = (headers: Record<string, string> = {}) =>
        fetch(`${server.baseUrl}${urlPath}`, { headers: { cookie: sessionCookie, ...headers } });
      const first = await get();
      const oldEtag = first.headers.get('etag') ?? '';
      expect([first.status, Buffer.from(await first.arrayBuffer()).equals(Buffer.alloc(size, 'a'))]).toEqual([
        200,
        true,
      ]);

      write(urlPath, Buffer.alloc(size, 'b'));

      // A browser revalidating its copy is told it changed once the server has read the build again.
      await expect.poll(async () => (await get({ 'if-none-match': oldEtag })).status, { timeout: 20_000 }).toBe(200);
      const after = await get();
      expect(after.headers.get('etag')).not.toBe(oldEtag);
      expect(Buffer.from(await after.arrayBuffer()).equals(Buffer.alloc(size, 'b'))).toBe(true);
      expect((await get({ 'if-none-match': after.headers.get('etag') ?? '' })).status).toBe(304);
    },
  );
});
