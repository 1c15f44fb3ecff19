import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';

export const siteBuildDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../site/build');

/** Starts the real server on a free loopback port over the built site. */
export async function startServer() {
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', LOG_LEVEL: 'warn', SITE_DIR: siteBuildDirectory });
  const app = await buildApp(config);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('The server did not listen on a TCP port.');
  return { app, baseUrl: `http://127.0.0.1:${address.port}` };
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
