/**
 * The doc sections as the server's thread holds them: each part's sections by column (their page's fields once per
 * page, their names as UTF-8 bytes, their levels in bytes) and their bodies (the text and blocks, nine tenths of their
 * size) as UTF-8 bytes outside the JavaScript heap, decoded when a section is read. A section is a small object over
 * its part's columns. At a hundred times the handbook's pages the bodies as objects were most of the heap, and parsing
 * them from JSON at start blocked the event loop and churned the collector for seconds; as bytes they cross from the
 * reader thread without a copy. Search and answers read the bodies of a few sections per question, so a small cache of
 * decoded ones serves them.
 */
import { LRUCache } from 'lru-cache';
import type { Block, DocSection } from './doc-page.js';
import { remembered } from './remembered.js';

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
  /** The sections' names (id, link, heading, parent heading) one after another, as UTF-8; `Heads.ends` says where. */
  names: Uint8Array;
};

type PageFields = Pick<DocSection, 'pageTitle' | 'pageUrl' | 'breadcrumbs' | 'keywords' | 'description'>;
/**
 * A part's sections by column: their page (its fields once per page), level, which names they have, and where each
 * name ends in the part's `names` bytes.
 */
type Heads = { pages: PageFields[]; page: number[]; level: number[]; has: number[]; ends: number[] };

/** Bits of `Heads.has`: the section has a heading, a parent heading, an id other than its link. */
const hasHeading = 1;
const hasParent = 2;
const hasOwnId = 4;
/** The names of a section in a part's `names`: its id (empty when it is its link), link, heading, parent heading. */
const namesPerSection = 4;

const pageFieldsOf = ({ pageTitle, pageUrl, breadcrumbs, keywords, description }: DocSection): PageFields => ({
  pageTitle,
  pageUrl,
  breadcrumbs,
  keywords,
  description,
});

/** Packs sections for another thread or a file; their page's fields are written once per page. */
export function packSections(sections: readonly DocSection[]): SectionPart & { bodies: Uint8Array } {
  const heads: Heads = { pages: [], page: [], level: [], has: [], ends: [] };
  const pageIds = new Map<string, number>();
  const names = new Pieces();
  const bodies = new Pieces();
  const offsets = new Int32Array(sections.length * 2 + 1);
  sections.forEach((section, at) => {
    const fields = pageFieldsOf(section);
    const key = JSON.stringify(fields);
    let page = pageIds.get(key);
    if (page === undefined) {
      page = heads.pages.push(fields) - 1;
      pageIds.set(key, page);
    }
    const { id, heading, parentHeading, url } = section;
    heads.page.push(page);
    heads.level.push(section.level);
    heads.has.push(
      (heading === undefined ? 0 : hasHeading) |
        (parentHeading === undefined ? 0 : hasParent) |
        (id === url ? 0 : hasOwnId),
    );
    for (const name of [id === url ? '' : id, url, heading ?? '', parentHeading ?? '']) {
      heads.ends.push(names.add(name));
    }
    offsets[at * 2] = bodies.length;
    offsets[at * 2 + 1] = bodies.add(section.text);
    bodies.add(JSON.stringify(section.blocks));
  });
  offsets[sections.length * 2] = bodies.length;
  return { heads: JSON.stringify(heads), bodies: bodies.joined(), offsets, names: names.joined() };
}

/** Texts as UTF-8 one after another, joined into bytes of their own (never a pooled buffer: they are moved). */
class Pieces {
  length = 0;
  readonly #pieces: Buffer[] = [];

  /** Adds a text; gives where it ends. */
  add(text: string): number {
    const bytes = Buffer.from(text, 'utf8');
    this.#pieces.push(bytes);
    this.length += bytes.length;
    return this.length;
  }

  joined(): Uint8Array {
    const all = new Uint8Array(this.length);
    let position = 0;
    for (const piece of this.#pieces) {
      all.set(piece, position);
      position += piece.length;
    }
    return all;
  }
}

/** A part as the server's thread holds it: its columns, and where its bodies are. */
type UnpackedPart = {
  pages: PageFields[];
  page: Uint32Array;
  level: Uint8Array;
  has: Uint8Array;
  /** The names as UTF-8 (a Buffer over the part's bytes, for its fast slicing into strings). */
  names: Buffer;
  /** Where each name ends in `names`, `namesPerSection` per section. */
  nameEnds: Int32Array;
  bodies: Uint8Array | { reader: BodyReader; part: number };
  offsets: Int32Array;
  /** Decoded bodies of the part's sections read lately, by place: they go with the part when its build is replaced. */
  decoded: LRUCache<number, { text?: string; blocks?: Block[] }>;
};

const decoder = new TextDecoder();

function decodedOf({ decoded }: UnpackedPart, at: number) {
  let entry = decoded.get(at);
  if (!entry) {
    entry = {};
    decoded.set(at, entry);
  }
  return entry;
}

/** The UTF-8 of a section's text (`which` 0) or of its blocks' JSON (`which` 1), decoded. */
function decodedBody({ bodies, offsets }: UnpackedPart, at: number, which: 0 | 1): string {
  const start = offsets[at * 2 + which] ?? 0;
  const end = offsets[at * 2 + which + 1] ?? 0;
  return decoder.decode(
    bodies instanceof Uint8Array ? bodies.subarray(start, end) : bodies.reader.read(bodies.part, start, end),
  );
}

/** The getters every section has (set by `PackedSection`'s static block). */
let fields: PropertyDescriptorMap = {};

/**
 * A section read from its part's columns. It holds only its part and place (private, so a spread or JSON copies
 * neither); every field of `DocSection` is its own enumerable getter, so that a spread, JSON or `toEqual` reads it
 * like a field. The getters are the same functions for all sections, kept in their shared shape, not in each object:
 * at a hundred times the handbook's pages the sections as plain objects (their names as strings, their bodies' places)
 * were a third of the heap, and the collector's pauses grew with their number.
 */
class PackedSection {
  readonly #part: UnpackedPart;
  readonly #at: number;

  constructor(part: UnpackedPart, at: number) {
    this.#part = part;
    this.#at = at;
    Object.defineProperties(this, fields);
  }

  static {
    const name = (section: PackedSection, which: number) => {
      const ends = section.#part.nameEnds;
      const at = section.#at * namesPerSection + which;
      return section.#part.names.toString('utf8', at === 0 ? 0 : ends[at - 1], ends[at]);
    };
    const has = (section: PackedSection, bit: number) => ((section.#part.has[section.#at] ?? 0) & bit) !== 0;
    // Every page number was checked against the part's pages when it was unpacked.
    const page = (section: PackedSection) => section.#part.pages[section.#part.page[section.#at] ?? 0] as PageFields;
    const field = <T>(get: (section: PackedSection) => T): PropertyDescriptor => ({
      get(this: PackedSection) {
        return get(this);
      },
      enumerable: true,
    });
    fields = {
      id: field((section) => name(section, has(section, hasOwnId) ? 0 : 1)),
      pageTitle: field((section) => page(section).pageTitle),
      pageUrl: field((section) => page(section).pageUrl),
      heading: field((section) => (has(section, hasHeading) ? name(section, 2) : undefined)),
      parentHeading: field((section) => (has(section, hasParent) ? name(section, 3) : undefined)),
      level: field((section) => section.#part.level[section.#at]),
      url: field((section) => name(section, 1)),
      text: field((section) => {
        const entry = decodedOf(section.#part, section.#at);
        entry.text ??= decodedBody(section.#part, section.#at, 0);
        return entry.text;
      }),
      blocks: field((section) => {
        const entry = decodedOf(section.#part, section.#at);
        entry.blocks ??= parsedBlocks(decodedBody(section.#part, section.#at, 1));
        return entry.blocks;
      }),
      breadcrumbs: field((section) => page(section).breadcrumbs),
      keywords: field((section) => page(section).keywords),
      description: field((section) => page(section).description),
    } satisfies Record<keyof DocSection, PropertyDescriptor>;
  }
}

/**
 * Blocks parsed lately, by their JSON, up to a million characters of it (the whole handbook's is 0.6 million): a body
 * decoded again once its part's cache below has let it go gets the very array it had, so what was derived from that
 * array is found again rather than made anew (its quotable units, analysed: section-units.ts; making them again was a
 * third of a search box answer's work at 1x). Keyed by the JSON itself, so a section rebuilt with other blocks never
 * gets the old ones; the arrays are shared, and never changed by their readers.
 */
const parsedBlocks = remembered((json): Block[] => JSON.parse(json) as Block[], { characters: 1_000_000 });

/**
 * Decoded bodies kept per part: a question reads some twenty sections, a search box eight, few of them in one part of a
 * thousand. Kept per part, not for all, so that a replaced build's bodies are not held by the cache.
 */
const decodedPerPart = 48;

/** Whether places into some bytes never go back and stay within `limit`. */
const ascendingWithin = (places: Int32Array, limit: number) =>
  places.every((place, at) => place >= (places[at - 1] ?? 0) && place <= limit);

/** The sections of a part, each a `PackedSection` over the part's columns. */
export function unpackSections(part: SectionPart, bodyFile?: BodyReader): DocSection[] {
  const heads = JSON.parse(part.heads) as Heads;
  const count = heads.page.length;
  if (heads.level.length !== count || heads.has.length !== count || heads.ends.length !== count * namesPerSection) {
    throw new Error('a part has uneven columns');
  }
  let bodies: UnpackedPart['bodies'];
  if (part.bodies instanceof Uint8Array) bodies = part.bodies;
  else if (bodyFile) bodies = { reader: bodyFile, part: part.bodies.part };
  else throw new Error('the sections have their bodies in a file, and it is not open');
  const unpacked: UnpackedPart = {
    pages: heads.pages,
    page: Uint32Array.from(heads.page),
    level: Uint8Array.from(heads.level),
    has: Uint8Array.from(heads.has),
    names: Buffer.from(part.names.buffer, part.names.byteOffset, part.names.byteLength),
    nameEnds: Int32Array.from(heads.ends),
    bodies,
    offsets: part.offsets,
    decoded: new LRUCache({ max: decodedPerPart }),
  };
  if (unpacked.page.some((page) => page >= unpacked.pages.length)) {
    throw new Error('a section names a page its part does not have');
  }
  const bodyBytes = part.bodies instanceof Uint8Array ? part.bodies.byteLength : Number.POSITIVE_INFINITY;
  if (part.offsets.length !== count * 2 + 1 || !ascendingWithin(part.offsets, bodyBytes)) {
    throw new Error('a part has its bodies out of order');
  }
  if (!ascendingWithin(unpacked.nameEnds, part.names.byteLength)) {
    throw new Error('a part has section names out of order');
  }
  return Array.from({ length: count }, (_, at) => new PackedSection(unpacked, at) as unknown as DocSection);
}

/**
 * Sections held packed, `perPart` at a time as they come: their bodies as UTF-8 bytes, each section a small object
 * over its part's columns. A large handbook parsed at start is never held as objects whole (at a hundred times the
 * handbook, about 330 MB of heap against 100 MB packed).
 */
export function heldPacked(sections: Iterable<DocSection>, perPart: number): DocSection[] {
  const held: DocSection[] = [];
  let part: DocSection[] = [];
  const pack = () => {
    for (const section of unpackSections(packSections(part))) held.push(section);
    part = [];
  };
  for (const section of sections) {
    part.push(section);
    if (part.length >= perPart) pack();
  }
  if (part.length > 0) pack();
  return held;
}
