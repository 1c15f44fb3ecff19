/** A small site build followed by `followSite`, for the follower's tests: written, changed, and cleaned up after each. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { followSite, type SiteFollower, type SiteFollowerOptions } from '../src/gate/site-follower.js';
import type { SectionsSource } from '../src/gate/site-messages.js';

export const page = (body: string) =>
  `<html><head><title>Runbook | Handbook</title><link rel="canonical" href="https://docs.example/runbook"></head>` +
  `<body><article><div class="theme-doc-markdown markdown"><header><h1>Runbook</h1></header>${body}</div></article></body></html>`;

const directories: string[] = [];
const followers: SiteFollower[] = [];

export function writeSite(directory: string, body: string) {
  mkdirSync(path.join(directory, 'runbook'), { recursive: true });
  writeFileSync(path.join(directory, 'runbook', 'index.html'), page(body));
  writeFileSync(path.join(directory, '404.html'), '<html><body>Page Not Found</body></html>');
}

/** Follows a new build of one page; what it keeps and where its sections came from are recorded. */
export async function follow(
  body: string,
  holdFirstSearch?: Promise<unknown>,
  beforeStart?: (directory: string) => void,
  options: Partial<SiteFollowerOptions> = {},
) {
  const parent = mkdtempSync(path.join(tmpdir(), 'site-follower-'));
  directories.push(parent);
  const directory = path.join(parent, 'build');
  writeSite(directory, body);
  beforeStart?.(directory);
  const kept: string[] = [];
  const sources: SectionsSource[] = [];
  const follower = await followSite(directory, {
    strictTransport: false,
    quietMs: 50,
    onKeptPrevious: (reason) => kept.push(reason),
    onSectionsSource: (source) => sources.push(source),
    holdFirstSearch,
    ...options,
  });
  followers.push(follower);
  if (!holdFirstSearch) await follower.searchReady();
  return { directory, follower, kept, sources };
}

/** A directory for a test of its own, removed after it. */
export function temporaryDirectory() {
  const parent = mkdtempSync(path.join(tmpdir(), 'site-follower-'));
  directories.push(parent);
  return parent;
}

export const restart = '<h2 id="restart">Restart</h2><p>Restart the worker with the deploy job.</p>';
export const zanzibar = '<h2 id="zanzibar">Zanzibar keys</h2><p>Rotate the zanzibar keys every quarter.</p>';
/** The OS file watcher reports a write in its own time (another thread); only a real wait lets it. */
export const changeSeen = () => new Promise((resolve) => setTimeout(resolve, 200));

afterEach(() => {
  for (const follower of followers.splice(0)) follower.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
