import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import type { BuildOptions, Store } from '../server/src/index.js';

/**
 * The compiled server (server/dist, built by `npm run build` and by the suite's global setup), so the suite tests
 * what production runs; the types come from its sources.
 */
const { buildApp, loadConfig, inMemoryDataDirectory, openStore } = (await import(
  '../server/dist/index.js' as string
)) as typeof import('../server/src/index.js');

/** The site's sources (the Docusaurus project). */
export const siteSourceDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../site');

/** The built site the tests serve; E2E_SITE_DIR points them at another build (one being worked on) without touching this one. */
export const siteBuildDirectory = path.resolve(process.env.E2E_SITE_DIR ?? path.join(siteSourceDirectory, 'build'));

/** A port the OS says is free right now; the public URL (and so the IdP's redirect URI) needs it before listening. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export type TestServer = Awaited<ReturnType<typeof startServer>>;

/**
 * DATA_DIR of the servers started here unless a test names its own: not the checkout's data/, where a server keeps
 * the search it made for a build without a prepared one. Made when first needed, removed when the process ends.
 */
let testDataDirectory: string | undefined;
const dataDirectoryOfTests = () => {
  if (testDataDirectory === undefined) {
    const made = mkdtempSync(path.join(tmpdir(), 'acme-test-data-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    testDataDirectory = made;
  }
  return testDataDirectory;
};

/** The server's configuration for a test on a free loopback port over the built site. */
async function testConfig(environment: Record<string, string>) {
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    SITE_DIR: siteBuildDirectory,
    DATA_DIR: dataDirectoryOfTests(),
    ...environment,
  });
  return { port, config, baseUrl: `http://127.0.0.1:${port}` };
}

/**
 * Starts the real server (embedded development IdP, in-memory PGlite unless a store is given) on a free loopback
 * port over the built site.
 */
export async function startServer(
  environment: Record<string, string> = {},
  options: BuildOptions & { store?: Store } = {},
) {
  const { port, config, baseUrl } = await testConfig(environment);
  const ownStore = !options.store;
  const store = options.store ?? (await openStore({ dataDirectory: inMemoryDataDirectory }));
  const app = await buildApp(config, { waitForSearchIndex: options.holdFirstSearch === undefined, ...options, store });
  await app.listen({ host: '127.0.0.1', port });
  return {
    app,
    config,
    store,
    baseUrl,
    async close() {
      await app.close();
      if (ownStore) await store.close();
    },
  };
}

/** Starts the server as production does: it opens its own store from `DATA_DIR` or `DATABASE_URL`. */
export async function startServerOnItsOwnStore(environment: Record<string, string>) {
  const { port, config, baseUrl } = await testConfig(environment);
  const app = await buildApp(config, { waitForSearchIndex: true });
  await app.listen({ host: '127.0.0.1', port });
  return { baseUrl, close: () => app.close() };
}

/** Debian's chromium, with the flags this closed network needs (no background calls home). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Compressed twins (x.js.br, x.js.gz) are served in place of their source, never under their own name. */
const compressedTwin = /\.(br|gz)$/;

/** Every regular file of the built site, as URL paths ("/assets/js/main.1a2b.js"). Symlinks are not followed. */
export function listSiteFiles(siteDirectory: string): Set<string> {
  const files = new Set<string>();
  const walk = (directory: string, urlPrefix: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const urlPath = `${urlPrefix}/${entry.name}`;
      if (entry.isDirectory()) walk(path.join(directory, entry.name), urlPath);
      else if (entry.isFile() && !compressedTwin.test(entry.name)) files.add(urlPath);
    }
  };
  walk(siteDirectory, '');
  return files;
}
