import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DocSection } from '../search/sections.js';

/**
 * The doc sections of the default site build (site/build), parsed once by `npm run build` (server/scripts/build.mjs)
 * and kept beside the compiled server, so a start on that build reads them instead of parsing every page. It goes with
 * dist/ whenever the server is compiled again (a changed parser), and a site built since simply does not match its key.
 */
export const docSectionsCacheFile = fileURLToPath(new URL('./doc-sections.json', import.meta.url));

export type DocSectionsCache = { key: string; sections: DocSection[] };

/** The sections known for pages with this key, or undefined (no cache, another build, an unreadable file). */
export function cachedDocSections(key: string): DocSection[] | undefined {
  try {
    const cache = JSON.parse(readFileSync(docSectionsCacheFile, 'utf8')) as DocSectionsCache;
    return cache.key === key && Array.isArray(cache.sections) ? cache.sections : undefined;
  } catch {
    return undefined;
  }
}
