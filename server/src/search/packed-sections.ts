/**
 * The doc sections as the server's thread holds them: what identifies and places each section (its page's fields once
 * per page) as small objects, and their bodies (the text and blocks, nine tenths of their size) as UTF-8 bytes outside
 * the JavaScript heap, decoded when a section is read. At a hundred times the handbook's pages the bodies as objects
 * were most of the heap, and parsing them from JSON at start blocked the event loop and churned the collector for
 * seconds; as bytes they cross from the reader thread without a copy. Search and answers read the bodies of a few
 * sections per question, so a small cache of decoded ones serves them.
 */
import { LRUCache } from 'lru-cache';
import type { Block, DocSection } from './doc-page.js';

/** Reads the bytes of a span of a part's bodies from their file, `start` and `end` counted from the part's first byte. */
export type BodyReader = { read(part: number, start: number, end: number): Uint8Array };

/** Where a part's bodies are in a prepared search file, left there (body-file.ts). */
export type BodiesInFile = { file: string; digest: string; partOffsets: number[]; part: number };

/** Some sections as they cross between threads and sit in a prepared search file. */
export type SectionPart = {
  /** JSON of `Heads`. */
  heads: string;
  /** Each section's text, then its blocks as JSON, as UTF-8; or where they are in a prepared search file. */
  bodies: Uint8Array | BodiesInFile;
  /** Per section: where its text starts, where its blocks start; then where the last one ends. */
  offsets: Int32Array;
};

type PageFields = Pick<DocSection, 'pageTitle' | 'pageUrl' | 'breadcrumbs' | 'keywords' | 'description'>;
type Head = Pick<DocSection, 'id' | 'heading' | 'parentHeading' | 'level' | 'url'> & { page: number };
type Heads = { pages: PageFields[]; sections: Head[] };

const pageFieldsOf = ({ pageTitle, pageUrl, breadcrumbs, keywords, description }: DocSection): PageFields => ({
  pageTitle,
  pageUrl,
  breadcrumbs,
  keywords,
  description,
});

/** Packs sections for another thread or a file; their page's fields are written once per page. */
export function packSections(sections: readonly DocSection[]): SectionPart & { bodies: Uint8Array } {
  const pages: PageFields[] = [];
  const pageIds = new Map<string, number>();
  const heads: Head[] = [];
  const pieces: Buffer[] = [];
  const offsets = new Int32Array(sections.length * 2 + 1);
  let length = 0;
  const add = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    pieces.push(bytes);
    length += bytes.length;
  };
  sections.forEach((section, at) => {
    const fields = pageFieldsOf(section);
    const key = JSON.stringify(fields);
    let page = pageIds.get(key);
    if (page === undefined) {
      page = pages.push(fields) - 1;
      pageIds.set(key, page);
    }
    const { id, heading, parentHeading, level, url } = section;
    heads.push({ id, heading, parentHeading, level, url, page });
    offsets[at * 2] = length;
    add(section.text);
    offsets[at * 2 + 1] = length;
    add(JSON.stringify(section.blocks));
  });
  offsets[sections.length * 2] = length;
  const bodies = new Uint8Array(length);
  let position = 0;
  for (const piece of pieces) {
    bodies.set(piece, position);
    position += piece.length;
  }
  return { heads: JSON.stringify({ pages, sections: heads } satisfies Heads), bodies, offsets };
}

/** Where one section's body is: its part's bytes (or their file, and the part's number) and its place among them. */
type BodyPlace = { bodies: Uint8Array | { reader: BodyReader; part: number }; offsets: Int32Array; at: number };
const body = Symbol('body');
type PackedSection = DocSection & { [body]: BodyPlace };

const decoder = new TextDecoder();
/** Decoded bodies of the sections read lately: a question reads some twenty, a search box eight. */
const decoded = new LRUCache<BodyPlace, { text?: string; blocks?: Block[] }>({ max: 2000 });

function decodedOf(place: BodyPlace) {
  let entry = decoded.get(place);
  if (!entry) {
    entry = {};
    decoded.set(place, entry);
  }
  return entry;
}

/** The UTF-8 of a section's text (`which` 0) or of its blocks' JSON (`which` 1), decoded. */
function decodedBody({ bodies, offsets, at }: BodyPlace, which: 0 | 1): string {
  const start = offsets[at * 2 + which] ?? 0;
  const end = offsets[at * 2 + which + 1] ?? 0;
  return decoder.decode(
    bodies instanceof Uint8Array ? bodies.subarray(start, end) : bodies.reader.read(bodies.part, start, end),
  );
}

function textOf(this: PackedSection): string {
  const entry = decodedOf(this[body]);
  entry.text ??= decodedBody(this[body], 0);
  return entry.text;
}

function blocksOf(this: PackedSection): Block[] {
  const entry = decodedOf(this[body]);
  entry.blocks ??= JSON.parse(decodedBody(this[body], 1)) as Block[];
  return entry.blocks;
}

/**
 * The sections of a part. `text` and `blocks` are their own enumerable getters (one pair of functions for all, so the
 * objects share their shape), read like any field: a spread or JSON copies their values.
 */
export function unpackSections(part: SectionPart, bodyFile?: BodyReader): DocSection[] {
  const { pages, sections } = JSON.parse(part.heads) as Heads;
  let bodies: BodyPlace['bodies'];
  if (part.bodies instanceof Uint8Array) bodies = part.bodies;
  else if (bodyFile) bodies = { reader: bodyFile, part: part.bodies.part };
  else throw new Error('the sections have their bodies in a file, and it is not open');
  return sections.map((head, at) => {
    const fields = pages[head.page];
    if (!fields) throw new Error(`a section names page ${head.page}, which its part does not have`);
    // One literal, its fields always in this order: every section has the same shape, and nothing is copied twice.
    const section = {
      id: head.id,
      pageTitle: fields.pageTitle,
      pageUrl: fields.pageUrl,
      heading: head.heading,
      parentHeading: head.parentHeading,
      level: head.level,
      url: head.url,
      breadcrumbs: fields.breadcrumbs,
      keywords: fields.keywords,
      description: fields.description,
    } as PackedSection;
    Object.defineProperty(section, body, { value: { bodies, offsets: part.offsets, at } });
    Object.defineProperty(section, 'text', { get: textOf, enumerable: true });
    Object.defineProperty(section, 'blocks', { get: blocksOf, enumerable: true });
    return section;
  });
}
