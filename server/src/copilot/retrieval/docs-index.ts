import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createDocsSearchIndex, type DocsSearchIndex } from './search-index.js';
import { readDocSections } from './sections.js';

/** Reads the built site and indexes every doc section. */
export function loadDocsSearchIndex(siteDirectory: string): DocsSearchIndex {
  return createDocsSearchIndex(readDocSections(siteDirectory));
}

/** Changes whenever a page is added, removed or rewritten: every index.html with its size and modification time. */
export function buildFingerprint(siteDirectory: string): string {
  const hash = createHash('sha1');
  const pages = readdirSync(siteDirectory, { recursive: true, encoding: 'utf8' })
    .filter((entry) => path.basename(entry) === 'index.html')
    .sort();
  for (const page of pages) {
    const stats = statSync(path.join(siteDirectory, page));
    hash.update(`${page}\0${stats.size}\0${stats.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

export type DocsSearchIndexSource = {
  /** The index for the build as it is now; rebuilt when the build changed, looked at most once per interval. */
  current(): DocsSearchIndex;
};

/**
 * Keeps an index in step with a site that may be rebuilt while the server runs. A build that cannot be read (for
 * instance one half-written) keeps the previous index until the next check.
 */
export function createDocsSearchIndexSource(
  siteDirectory: string,
  options: { checkIntervalMs?: number; now?: () => number } = {},
): DocsSearchIndexSource {
  const checkIntervalMs = options.checkIntervalMs ?? 2000;
  const now = options.now ?? Date.now;
  let fingerprint = buildFingerprint(siteDirectory);
  let index = loadDocsSearchIndex(siteDirectory);
  let checkedAt = now();

  return {
    current() {
      if (now() - checkedAt < checkIntervalMs) return index;
      checkedAt = now();
      try {
        const latest = buildFingerprint(siteDirectory);
        if (latest === fingerprint) return index;
        const rebuilt = loadDocsSearchIndex(siteDirectory);
        if (rebuilt.sections.length > 0) {
          index = rebuilt;
          fingerprint = latest;
        }
      } catch (error) {
        console.warn(`Keeping the previous docs index: the build in ${siteDirectory} could not be read.`, error);
      }
      return index;
    },
  };
}
