import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DocSection } from './doc-page.js';
import { sectionKey } from './section-lookups.js';
import { SectionsByKey } from './sections-by-key.js';

const sectionAt = (url: string, number: number) => ({ url, id: `${number}` }) as DocSection;

describe('SectionsByKey', () => {
  it('finds what a Map of the same keys finds, the last section of a key winning, and nothing else', () => {
    const link = fc
      .tuple(fc.constantFrom('/a', '/a/', '/b', '/Dev%20Resources', '/Dev Resources/'), fc.string({ maxLength: 3 }))
      .map(([page, anchor]) => `${page}#${anchor}`);
    fc.assert(
      fc.property(fc.array(link, { maxLength: 60 }), fc.array(link, { maxLength: 20 }), (links, asked) => {
        const sections = links.map(sectionAt);
        const table = new SectionsByKey(sections, sectionKey);
        const map = new Map<string, DocSection>();
        sections.forEach((section, id) => {
          table.add(id, sectionKey(section.url));
          map.set(sectionKey(section.url), section);
        });
        for (const url of [...links, ...asked]) expect(table.get(sectionKey(url))).toBe(map.get(sectionKey(url)));
      }),
      { numRuns: 500 },
    );
  });

  it('answers undefined for any key of an empty build', () => {
    expect(new SectionsByKey([], sectionKey).get('/a#b')).toBeUndefined();
  });

  it('keeps every one of many sections apart (a full table probes on)', () => {
    const sections = Array.from({ length: 5000 }, (_, number) =>
      sectionAt(`/page-${number % 97}#part-${number}`, number),
    );
    const table = new SectionsByKey(sections, sectionKey);
    sections.forEach((section, id) => {
      table.add(id, sectionKey(section.url));
    });
    for (const section of sections) expect(table.get(sectionKey(section.url))).toBe(section);
    expect(table.get(sectionKey('/page-1#part-2'))).toBeUndefined();
  });
});
