import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sectionKey, sectionKeysByPage } from './section-lookups.js';

/** Pieces of links as a build and a reader write them: encoded and raw, non-ASCII, slashes, malformed escapes. */
const piece = fc.constantFrom(
  'a',
  'Dev',
  'deploy-guide',
  '%20',
  ' ',
  'ü',
  '%C3%BC',
  '%zz',
  '%',
  '/',
  '//',
  '.',
  '..',
  '_',
  '\t',
  '\n',
  '\\',
  '?q=1',
);
const text = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(''));
const link = fc
  .tuple(fc.constantFrom('/', '//', '', 'https://docs.example/', './'), text, fc.option(text, { nil: undefined }))
  .map(([start, path, anchor]) => (anchor === undefined ? `${start}${path}` : `${start}${path}#${anchor}`));

describe('sectionKeysByPage', () => {
  it('gives every link the key sectionKey gives it, whatever its form, with pages seen before or not', () => {
    fc.assert(
      fc.property(fc.array(link, { minLength: 1, maxLength: 20 }), (links) => {
        const keyOf = sectionKeysByPage();
        for (const url of [...links, ...links]) expect(keyOf(url)).toBe(sectionKey(url));
      }),
      { numRuns: 2000 },
    );
  });

  it("keys a page's sections by the page's key and their anchors, decoded", () => {
    const keyOf = sectionKeysByPage();
    expect(keyOf('/runbook/#restart')).toBe('/runbook#restart');
    expect(keyOf('/runbook/#rotate-keys')).toBe('/runbook#rotate-keys');
    expect(keyOf('/Dev%20Resources/#%C3%BCber')).toBe('/Dev Resources#über');
    expect(keyOf('/runbook/')).toBe('/runbook#');
  });
});
