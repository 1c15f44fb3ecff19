import type { DocSection } from '../server/src/search/doc-page.js';
import { packSections, unpackSections } from '../server/src/search/packed-sections.js';
import { sectionsPerPart } from '../server/src/search/prepared-search.js';

/**
 * A handbook `copies` times larger: every page again under another path, its words shuffled between sections (each
 * copy's section takes sixty words of another section), so no two copies rank exactly alike.
 */
export function largerHandbook(sections: readonly DocSection[], copies: number): DocSection[] {
  const all: DocSection[] = [...sections];
  for (let copy = 1; copy < copies; copy += 1) {
    for (const [position, section] of sections.entries()) {
      const donor = sections[(position * 7 + copy * 13) % sections.length] ?? section;
      const prefix = `/copy-${copy}`;
      all.push({
        ...section,
        id: `${prefix}${section.id}`,
        pageUrl: `${prefix}${section.pageUrl}`,
        url: `${prefix}${section.url}`,
        text: `${section.text} ${donor.text.split(' ').slice(0, 60).join(' ')}`,
      });
    }
  }
  return all;
}

/**
 * The sections as the server holds them: read from parts of a thousand into packed sections (packed-sections.ts), not
 * as plain objects. A bench holding 86,700 plain sections has a heap of 250 MB whose collections (50 ms and more) it
 * would count as the indexing's.
 */
export function heldAsTheServerHolds(sections: readonly DocSection[]): DocSection[] {
  const held: DocSection[] = [];
  for (let start = 0; start < sections.length; start += sectionsPerPart) {
    held.push(...unpackSections(packSections(sections.slice(start, start + sectionsPerPart))));
  }
  return held;
}
