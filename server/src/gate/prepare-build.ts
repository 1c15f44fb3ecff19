import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { preparingMarker, writePreparedSearch } from '../search/prepared-search.js';
import { indexSections } from '../search/section-terms.js';
import { docSectionsOf } from '../search/sections.js';
import { readBuiltSite } from './built-site.js';

/**
 * Parses and indexes a build's doc pages once, into its prepared search (prepared-search.ts), under the key a server
 * reading the same build computes: `npm run build` runs it, so a start reads the search instead of making it.
 */
export function prepareBuild(siteDirectory: string): { sections: number; bytes: number } {
  // Said at once, so that a server following the build waits for this search instead of parsing the pages itself
  // (built-site-worker.ts); the marker becomes the file, renamed into place.
  const marker = path.join(siteDirectory, preparingMarker);
  writeFileSync(marker, '');
  try {
    // Nothing is held: only the pages' key and their text are wanted.
    const { site, pages } = readBuiltSite(siteDirectory, { maxFileBytes: 0, maxTotalBytes: 0 });
    const sections = docSectionsOf(pages);
    const bytes = writePreparedSearch(siteDirectory, site.sectionsKey, sections, indexSections(sections));
    return { sections: sections.length, bytes };
  } catch (error) {
    rmSync(marker, { force: true });
    throw error;
  }
}
