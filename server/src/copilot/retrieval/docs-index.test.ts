import { cpSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { followBuild } from '../../build-follower.js';
import { hasDocSections, loadDocsSearchIndex } from './docs-index.js';

const siteDirectory = fileURLToPath(new URL('../../../../site/build', import.meta.url));
const copies: string[] = [];

/** A copy of two built pages, so the test can change "the build" without touching the real one. */
function smallBuild(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'docs-index-'));
  copies.push(directory);
  for (const page of ['firestore-ttl', 'cloudflare-tunnel']) {
    cpSync(path.join(siteDirectory, page, 'index.html'), path.join(directory, page, 'index.html'));
  }
  return directory;
}

afterAll(() => {
  for (const directory of copies) rmSync(directory, { recursive: true, force: true });
});

describe('loadDocsSearchIndex', () => {
  it('indexes every section of the whole built site', () => {
    const index = loadDocsSearchIndex(siteDirectory);
    expect(index.sections.length).toBeGreaterThan(500);
    expect(new Set(index.sections.map((section) => section.pageUrl)).size).toBeGreaterThanOrEqual(52);
  });
});

/** The docs index following a build, as the server keeps it (there together with the gate's file list). */
const createDocsSearchIndexSource = (directory: string, options: { checkIntervalMs?: number; now: () => number }) =>
  followBuild(directory, () => loadDocsSearchIndex(directory), { ...options, usable: hasDocSections });

describe('the docs index following the build', () => {
  it('rebuilds after the build changes, but checks at most once per interval', () => {
    const directory = smallBuild();
    let clock = 0;
    const source = createDocsSearchIndexSource(directory, { checkIntervalMs: 2000, now: () => clock });
    const first = source.current();
    expect(first.hasUrl('/cloudflare-tunnel')).toBe(true);

    cpSync(path.join(siteDirectory, 'koajs', 'index.html'), path.join(directory, 'koajs', 'index.html'));
    clock = 1000;
    expect(source.current()).toBe(first);
    clock = 2500;
    expect(source.current().hasUrl('/koajs/')).toBe(true);
  });

  it('keeps the same index while nothing changed', () => {
    const directory = smallBuild();
    let clock = 0;
    const source = createDocsSearchIndexSource(directory, { now: () => clock });
    const first = source.current();
    clock = 10_000;
    expect(source.current()).toBe(first);
  });

  it('keeps the previous index when a rebuild leaves no doc pages', () => {
    const directory = smallBuild();
    let clock = 0;
    const source = createDocsSearchIndexSource(directory, { now: () => clock });
    const first = source.current();
    rmSync(path.join(directory, 'firestore-ttl'), { recursive: true });
    rmSync(path.join(directory, 'cloudflare-tunnel'), { recursive: true });
    clock = 5000;
    expect(source.current()).toBe(first);
  });

  it('notices a page rewritten in place', () => {
    const directory = smallBuild();
    let clock = 0;
    const source = createDocsSearchIndexSource(directory, { now: () => clock });
    const first = source.current();
    const page = path.join(directory, 'firestore-ttl', 'index.html');
    utimesSync(page, new Date(), new Date(Date.now() + 60_000));
    clock = 5000;
    expect(source.current()).not.toBe(first);
  });
});
