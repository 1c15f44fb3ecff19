import { describe, expect, it } from 'vitest';
import { builtSiteDirectory } from '../../test-support/recorded-ranking.js';
import type { DocSection } from './doc-page.js';
import { heldPacked, packSections, type SectionPart, unpackSections } from './packed-sections.js';
import { unitsOf } from './section-units.js';
import { readDocSections } from './sections.js';

const handbook = readDocSections(builtSiteDirectory);

const section = (id: string, overrides: Partial<DocSection> = {}): DocSection => ({
  id,
  pageTitle: 'Café ☕ runbook',
  pageUrl: '/runbook',
  heading: `Step ${id}`,
  parentHeading: undefined,
  level: 2,
  url: `/runbook#${id}`,
  text: `Grüße aus 東京: run \`deploy --env ${id}\``,
  blocks: [
    { kind: 'text', markdown: `Grüße aus **東京**: run \`deploy --env ${id}\`` },
    { kind: 'table', header: ['Flag', 'Means'], rows: [['--env', 'ünïcode']] },
  ],
  breadcrumbs: ['Runbooks', 'Café'],
  keywords: ['deploy'],
  description: 'How we deploy.',
  ...overrides,
});

/** Across a thread or a file: the part's parts as a structured clone copies them. */
const carried = (sections: readonly DocSection[]) => unpackSections(structuredClone(packSections(sections)));

describe('packed sections', () => {
  it('give back every section of the handbook as it was, its text and blocks read from bytes', () => {
    const back = carried(handbook);
    expect(back).toEqual(handbook);
    expect(JSON.parse(JSON.stringify(back))).toEqual(JSON.parse(JSON.stringify(handbook)));
  });

  it('are held packed in parts of the size asked, in their order, the last part not full', () => {
    const came: number[] = [];
    function* parsed() {
      for (const [at, each] of handbook.entries()) {
        came.push(at);
        yield each;
      }
    }
    const held = heldPacked(parsed(), 100);
    expect(handbook.length % 100).not.toBe(0);
    expect(came).toHaveLength(handbook.length);
    expect(held).toEqual(handbook);
    expect(heldPacked([], 100)).toEqual([]);
  });

  it('keep non-ASCII text, empty bodies, missing headings and several pages in one part', () => {
    const sections = [
      section('a'),
      section('b', { text: '', blocks: [] }),
      section('intro', { heading: undefined, level: 1, url: '/other', pageUrl: '/other', pageTitle: 'Other' }),
      section('c', { description: undefined, keywords: [] }),
    ];
    expect(carried(sections)).toEqual(sections);
  });

  it('keep an id other than the link, empty and missing headings apart, and names with NULs and non-ASCII', () => {
    const sections = [
      section('a', { id: 'own-id', heading: '', parentHeading: 'Über', level: 3 }),
      section('b', { id: '/runbook#b', heading: 'Tab\tand ☕', parentHeading: undefined }),
      section('c', { id: '/runbook#c\u0000d', url: '/runbook#c\u0000d', heading: 'a\u0000b' }),
    ];
    const back = carried(sections);
    expect(back).toEqual(sections);
    expect(back.map((read) => [read.id, read.heading, read.parentHeading, read.level])).toEqual([
      ['own-id', '', 'Über', 3],
      ['/runbook#b', 'Tab\tand ☕', undefined, 2],
      ['/runbook#c\u0000d', 'a\u0000b', undefined, 2],
    ]);
  });

  it('show only the fields of a section to a spread, JSON and Object.keys', () => {
    const [back] = carried([section('a')]);
    expect(Object.keys({ ...back }).sort()).toEqual(Object.keys(section('a')).sort());
    expect(JSON.stringify(back)).toBe(JSON.stringify(section('a')));
  });

  it('hold nothing of their own but their place: every field is a getter over the part', () => {
    const [back] = carried([section('a')]);
    const own = Object.getOwnPropertyDescriptors(back);
    expect(Object.getOwnPropertySymbols(back)).toEqual([]);
    expect(Object.values(own).every((descriptor) => descriptor.get && !('value' in descriptor))).toBe(true);
  });

  it.each([
    ['heads that are not JSON', (part: SectionPart) => ({ ...part, heads: '{' })],
    [
      'a column shorter than the others',
      (part: SectionPart) => ({ ...part, heads: part.heads.replace('"level":[2,', '"level":[') }),
    ],
    ['names past their bytes', (part: SectionPart) => ({ ...part, names: part.names.subarray(0, 4) })],
    [
      'bodies out of order',
      (part: SectionPart) => ({ ...part, offsets: part.offsets.map((offset, at) => (at === 1 ? 1e6 : offset)) }),
    ],
  ])('refuse a part with %s, with an error, not sections that read wrong', (_case, damage) => {
    const part = packSections([section('a'), section('b')]);
    expect(() => unpackSections(damage(part))).toThrow(Error);
  });

  it('copy their text and blocks into a spread, as a search hit is made', () => {
    const [back] = carried([section('a')]);
    const hit = { ...back, score: 1 };
    expect(Object.getOwnPropertyDescriptor(hit, 'text')).toMatchObject({ value: section('a').text });
    expect(hit.blocks).toEqual(section('a').blocks);
  });

  it('write a page once for all of its sections', () => {
    const many = Array.from({ length: 50 }, (_, at) => section(String(at)));
    const heads = JSON.parse(packSections(many).heads) as { pages: unknown[]; page: unknown[] };
    expect(heads.pages).toHaveLength(1);
    expect(heads.page).toHaveLength(50);
  });

  it('read right after many others were read (decoded bodies are cached only for the latest)', () => {
    const many = Array.from({ length: 2500 }, (_, at) => section(String(at)));
    const back = carried(many);
    for (const read of back) expect(read.text).toContain('deploy --env');
    expect(back.map((read) => read.text)).toEqual(many.map((read) => read.text));
    expect(back[0]?.blocks).toEqual(many[0]?.blocks);
  });

  it('give a body decoded again the blocks it had, so its analysed units are found again; other blocks their own', () => {
    const many = Array.from({ length: 200 }, (_, at) => section(String(at)));
    const back = carried(many);
    const first = back[0]?.blocks;
    const firstUnits = back[0] ? unitsOf(back[0]) : undefined;
    // Read enough others that the part's cache of decoded bodies lets the first one go.
    for (const read of back.slice(1)) expect(read.blocks).toHaveLength(2);
    expect(back[0]?.blocks).toBe(first);
    expect(back[0] ? unitsOf(back[0]) : undefined).toBe(firstUnits);
    // The same section rebuilt with a link changed: the same text, other blocks.
    const rebuilt = section('0', {
      blocks: [{ kind: 'text', markdown: 'Grüße aus [東京](/tokyo): run `deploy --env 0`' }],
    });
    const [again] = carried([rebuilt]);
    expect(again?.blocks).toEqual(rebuilt.blocks);
    expect(again?.blocks).not.toBe(first);
    expect(again ? unitsOf(again).map((unit) => unit.markdown) : []).toEqual([
      'Grüße aus [東京](/tokyo): run `deploy --env 0`',
    ]);
  });
});
