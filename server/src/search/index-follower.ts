import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildFingerprint } from '../build-follower.js';
import { buildSearchEngineInBackground, createSearchEngine, type SearchEngine } from './engine.js';
import { readDocSections, readDocSectionsInBackground } from './sections.js';

export type SearchIndexFollower = {
  /** The engine of the newest complete build; a rebuild is noticed here and indexed in the background. */
  current(): SearchEngine;
  /** Resolves once a rebuild being indexed now is swapped in (tests). */
  settled(): Promise<void>;
};

/**
 * The search engine follows the built site: built once at start, then, when a check finds the build changed, built
 * anew in the background and swapped in whole when ready. Requests meanwhile get the previous engine; a build without
 * its 404 page or with no doc sections (half-written or broken) keeps it too.
 */
export function followSearchIndex(
  siteDirectory: string,
  options: { checkIntervalMs?: number; onKeptPrevious: (error: unknown) => void },
): SearchIndexFollower {
  const checkIntervalMs = options.checkIntervalMs ?? 2000;
  let engine = createSearchEngine(readDocSections(siteDirectory));
  let fingerprint = buildFingerprint(siteDirectory);
  let checkedAt = Date.now();
  let rebuilding: Promise<void> | undefined;

  async function rebuild(latest: string) {
    // The gate's rule for a finished build: Docusaurus writes its 404 page last.
    if (!existsSync(path.join(siteDirectory, '404.html'))) {
      throw new Error(`the build in ${siteDirectory} is not finished; keeping the previous search index`);
    }
    const sections = await readDocSectionsInBackground(siteDirectory);
    if (sections.length === 0) throw new Error(`no doc pages in ${siteDirectory}; keeping the previous search index`);
    engine = await buildSearchEngineInBackground(sections);
    fingerprint = latest;
  }

  return {
    current() {
      if (!rebuilding && Date.now() - checkedAt >= checkIntervalMs) {
        checkedAt = Date.now();
        try {
          const latest = buildFingerprint(siteDirectory);
          if (latest !== fingerprint) {
            rebuilding = rebuild(latest)
              .catch(options.onKeptPrevious)
              .finally(() => {
                rebuilding = undefined;
              });
          }
        } catch (error) {
          options.onKeptPrevious(error);
        }
      }
      return engine;
    },
    settled: () => rebuilding ?? Promise.resolve(),
  };
}
