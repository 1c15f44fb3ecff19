/**
 * The search of a build prepared by `npm run build` (server/src/gate/prepare-build.ts): its doc sections, their index
 * and latent space in one file inside the build, so a start reads them instead of parsing every page and indexing
 * (minutes for a handbook of thousands of pages). A file that is missing, made for other pages or by other code, or
 * damaged is refused with the reason, and the server parses the pages as it would without it.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { searchCodeHash } from '../../scripts/search-code.mjs';
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
export const formatVersion = 4;

/**
 * The code that parsed and indexed: the hash of its search sources, written into a compiled server at build
 * (server/scripts/build.mjs) and taken at start when run from the sources, so a file prepared or kept by an older
 * parser or indexer is stale.
 */
declare const PREPARED_SEARCH_CODE: string | undefined;
export const preparedSearchCode =
  typeof PREPARED_SEARCH_CODE === 'string'
    ? PREPARED_SEARCH_CODE
    : searchCodeHash(fileURLToPath(new URL('../..', import.meta.url)));

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
 * The digest a header carries: its own fields first (all but the digest, as JSON), then the SHA-256 of the body. A
 * header whose parts' places or counts were damaged is caught like damaged bytes, not read as sections that are not
 * there; and the body is hashed as it is written, before the header (which names its parts) is known.
 */
export function digestOf(described: Omit<Header, 'digest'>, bodyDigest: string): string {
  return createHash('sha256').update(JSON.stringify(described)).update(bodyDigest).digest('hex');
}

/** Where the body's bytes go: `offset` counts from the body's first byte. */
type BodySink = (bytes: Uint8Array, offset: number) => void;

/**
 * Lays out the body part by part, each 8-byte aligned, into `sink`, one part of the sections packed at a time: a
 * large handbook's file is never held whole. Gives the header's fields and the body's length.
 */
function layOut(key: string, sections: readonly DocSection[], index: IndexWithMeaning, sink: BodySink) {
  const parts: Part[] = [];
  const hash = createHash('sha256');
  let offset = 0;
  const add = (name: string, kind: Part['kind'], bytes: Uint8Array) => {
    parts.push({ name, kind, offset, length: bytes.byteLength });
    const padding = new Uint8Array((8 - (bytes.byteLength % 8)) % 8);
    for (const piece of [bytes, padding]) {
      sink(piece, offset);
      hash.update(piece);
      offset += piece.byteLength;
    }
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
  const header: Header = { ...described, digest: digestOf(described, hash.digest('hex')) };
  return { header, bodyLength: offset };
}

/** The bytes before the body: the magic, the header's length, the header (JSON, padded with spaces to `room`). */
function headBytes(header: Header, room?: number): Buffer {
  const json = JSON.stringify(header);
  const length = room ?? Buffer.byteLength(json);
  if (Buffer.byteLength(json) > length) throw new Error('the prepared search header outgrew the room left for it');
  const head = Buffer.alloc(magic.length + 4 + length, ' ');
  magic.copy(head);
  head.writeUInt32LE(length, magic.length);
  head.write(json, magic.length + 4);
  return head;
}

/** The file's bytes in memory: a header (JSON) naming the parts of the body, then the body. */
export function encodePreparedSearch(key: string, sections: readonly DocSection[], index: IndexWithMeaning): Buffer {
  const chunks: Uint8Array[] = [];
  const { header } = layOut(key, sections, index, (bytes) => chunks.push(bytes));
  return Buffer.concat([headBytes(header), ...chunks]);
}

/**
 * Writes the file to `partial`, then renames it to `file`, so a reader never sees half of it. The body is written
 * first, behind room left for the header (which names its parts, known only once they are written), a part at a time.
 * Made with `mode` (0600: the server's user's only). Gives its size in bytes.
 */
export function writeSearchFile(
  { file, partial, mode }: { file: string; partial: string; mode: number },
  key: string,
  sections: readonly DocSection[],
  index: IndexWithMeaning,
): number {
  // Room for the header: its fixed fields, and each part's name, kind, offset and length (under 100 bytes as JSON).
  const partCount = Math.ceil(sections.length / sectionsPerPart) * 4 + packedArrays.length + 4;
  const room = 1024 + key.length + preparedSearchCode.length + partCount * 160;
  const bodyStart = magic.length + 4 + room;
  const descriptor = openSync(partial, 'w', mode);
  let open = true;
  try {
    const write = (bytes: Uint8Array, position: number) => {
      for (let done = 0; done < bytes.byteLength; )
        done += writeSync(descriptor, bytes, done, bytes.byteLength - done, position + done);
    };
    const { header, bodyLength } = layOut(key, sections, index, (bytes, offset) => write(bytes, bodyStart + offset));
    write(headBytes(header, room), 0);
    open = false;
    closeSync(descriptor);
    renameSync(partial, file);
    return bodyStart + bodyLength;
  } catch (error) {
    if (open) closeSync(descriptor);
    rmSync(partial, { force: true });
    throw error;
  }
}

/** Writes a build's prepared search under its marker's name first (prepare-build.ts), then renames it into place. */
export function writePreparedSearch(
  siteDirectory: string,
  key: string,
  sections: readonly DocSection[],
  index: IndexWithMeaning,
): number {
  // Read by whoever serves the build, as its other files are.
  const file = path.join(siteDirectory, preparedSearchFile);
  return writeSearchFile(
    { file, partial: path.join(siteDirectory, preparingMarker), mode: 0o644 },
    key,
    sections,
    index,
  );
}
