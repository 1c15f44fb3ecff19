import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readBuiltSite } from '../server/src/gate/built-site';
import type { DocSectionsCache } from '../server/src/gate/doc-sections-cache';
import { docSectionsOf } from '../server/src/search/sections';

/**
 * The build parses site/build's doc sections once into server/dist/doc-sections.json, and a start on that build reads
 * them instead of parsing: they must be exactly what parsing the build gives, under the key a start computes.
 */
const serverDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../server');
const siteDirectory = path.resolve(serverDirectory, '../site/build');
const cacheFile = path.join(serverDirectory, 'dist', 'doc-sections.json');

describe('the doc sections prepared by the build', () => {
  it.runIf(existsSync(siteDirectory))('areThoseParsingTheBuildGives, under the key a start looks for', async () => {
    expect(existsSync(cacheFile)).toBe(true);
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8')) as DocSectionsCache;
    const parsed = await readBuiltSite(siteDirectory, { maxFileBytes: 0, maxTotalBytes: 0 }, async (pages) =>
      docSectionsOf(pages),
    );
    expect(cache.key).toBe(parsed.sectionsKey);
    expect(cache.sections.length).toBeGreaterThan(100);
    expect(cache.sections).toEqual(parsed.sections);
  });
});
