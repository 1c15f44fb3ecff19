/**
 * The search of a build prepared by `npm run build` (server/src/gate/prepare-build.ts): its doc sections, their index
 * and latent space in one file inside the build, so a start reads them instead of parsing every page and indexing
 * (minutes for a handbook of thousands of pages). A file that is missing, made for other pages or by other code, or
 * damaged is refused with the reason, and the server parses the pages as it would without it.
 */
import { createHash, type Hash } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DocSection } from './doc-page.js';
import type { PackedIndex } from './inverted-index.js';
import type { IndexWithMeaning } from './latent-ranking.js';
import { packSections } from './packed-sections.js';

/** Its name in the build: never served (built-site.ts leaves it out), and gone with the build it was made for. */
export const preparedSearchFile = 'prepared-search.bin';
/** Written before a build's search is prepared, and renamed to `preparedSearchFile` once it is. */
export const preparingMarker = `${preparedSearchFile}.partial`;

export const magic = Buffer.from('ACMESRCH');
/** Changes with the layout below. */
export const formatVersion = 3;

/**
 * The code that parsed and indexed: a compiled server knows the hash of its search sources (server/scripts/build.mjs),
 * so a file prepared by an older parser or indexer is stale. Run from the sources, the code is only "sources".
 */
declare const PREPARED_SEARCH_CODE: string | undefined;
export const preparedSearchCode = typeof PREPARED_SEARCH_CODE === 'string' ? PREPARED_SEARCH_CODE : 'sources';

/** The sections cross threads packed in parts of this many (packed-sections.ts): a part is unpacked within one turn. */
export const sectionsPerPart = 1000;

export type ArrayKind = 'int32' | 'uint16' | 'uint8' | 'int8' | 'float32' | 'float64';
export type Part = { name: string; kind: 'json' | ArrayKind; offset: number; length: number };
export type Header = {
  format: number;
  code: string;
  key: string;
  digest: string;
  documentCount: number;
  fieldCount: number;
  dimensions: number | undefined;
  sectionParts: number;
  parts: Part[];
};
type TypedArray = Int32Array | Uint16Array | Uint8Array | Int8Array | Float32Array | Float64Array;
export const arrayTypes = {
  int32: Int32Array,
  uint16: Uint16Array,
  uint8: Uint8Array,
  int8: Int8Array,
  float32: Float32Array,
  float64: Float64Array,
};
export const packedArrays = [
  ['sortedTermIds', 'int32'],
  ['offsets', 'int32'],
  ['documents', 'int32'],
  ['frequencies', 'uint16'],
  ['fieldLengths', 'int32'],
  ['averageFieldLengths', 'float64'],
  ['documentFrequency', 'int32'],
  ['subject', 'uint8'],
  ['spellingUses', 'int32'],
] as const satisfies ReadonlyArray<readonly [keyof PackedIndex, ArrayKind]>;

/**
 * The digest's hash with the header's own fields in it first (all but the digest, as JSON): a header whose parts' places
 * or counts were damaged is caught like damaged bytes, not read as sections that are not there.
 */
export function digestStart(header: Omit<Header, 'digest'>): Hash {
  return createHash('sha256').update(JSON.stringify(header));
}

/** The file's bytes: a header (JSON) naming the parts of the body, then the body, each part 8-byte aligned. */
export function encodePreparedSearch(key: string, sections: readonly DocSection[], index: IndexWithMeaning): Buffer {
  const chunks: Buffer[] = [];
  const parts: Part[] = [];
  let offset = 0;
  const add = (name: string, kind: Part['kind'], bytes: Uint8Array) => {
    parts.push({ name, kind, offset, length: bytes.byteLength });
    chunks.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const padding = (8 - (bytes.byteLength % 8)) % 8;
    chunks.push(Buffer.alloc(padding));
    offset += bytes.byteLength + padding;
  };
  const addArray = (name: string, kind: ArrayKind, array: TypedArray) =>
    add(name, kind, new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  let sectionParts = 0;
  for (let start = 0; start < sections.length; start += sectionsPerPart, sectionParts += 1) {
    const part = packSections(sections.slice(start, start + sectionsPerPart));
    add(`sections.${sectionParts}`, 'json', Buffer.from(part.heads));
    add(`bodies.${sectionParts}`, 'uint8', part.bodies);
    addArray(`bodyOffsets.${sectionParts}`, 'int32', part.offsets);
    add(`names.${sectionParts}`, 'uint8', part.names);
  }
  add('terms', 'json', Buffer.from(JSON.stringify(index.terms)));
  add('spellingWords', 'json', Buffer.from(JSON.stringify(index.spellingWords)));
  for (const [name, kind] of packedArrays) addArray(name, kind, index[name]);
  if (index.latent) {
    addArray('termVectors', 'float32', index.latent.termVectors);
    addArray('sectionVectors', 'int8', index.latent.sectionVectors);
  }
  const body = Buffer.concat(chunks);
  const described: Omit<Header, 'digest'> = {
    format: formatVersion,
    code: preparedSearchCode,
    key,
    documentCount: index.documentCount,
    fieldCount: index.fieldCount,
    dimensions: index.latent?.dimensions,
    sectionParts,
    parts,
  };
  const header: Header = { ...described, digest: digestStart(described).update(body).digest('hex') };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const headerLength = Buffer.alloc(4);
  headerLength.writeUInt32LE(headerBytes.length);
  return Buffer.concat([magic, headerLength, headerBytes, body]);
}

/** Writes the file under another name first, so a server reading the build meanwhile never sees half of it. */
export function writePreparedSearch(
  siteDirectory: string,
  key: string,
  sections: readonly DocSection[],
  index: IndexWithMeaning,
): number {
  const bytes = encodePreparedSearch(key, sections, index);
  const file = path.join(siteDirectory, preparedSearchFile);
  writeFileSync(path.join(siteDirectory, preparingMarker), bytes);
  renameSync(path.join(siteDirectory, preparingMarker), file);
  return bytes.length;
}
