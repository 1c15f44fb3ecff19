import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { PackedIndex } from './inverted-index.js';
import type { IndexWithMeaning } from './latent-ranking.js';
import type { SectionPart } from './packed-sections.js';
import {
  arrayTypes,
  digestOf,
  formatVersion,
  type Header,
  magic,
  type Part,
  packedArrays,
  preparedSearchCode,
  preparedSearchFile,
} from './prepared-search.js';

/** The sections in packed parts, read from the file one at a time when asked for; `close` once done. */
export type SectionParts = { count: number; part(at: number): SectionPart; close(): void };

/** What a start finds: the sections and the index, or why the pages must be parsed instead. */
export type PreparedSearch =
  | { kind: 'loaded'; sectionParts: SectionParts; index: IndexWithMeaning }
  | { kind: 'missing' | 'stale' | 'corrupt'; reason: string };

/** Bytes hashed per read: the file is never held whole, a handbook's being hundreds of megabytes. */
const digestChunk = 4 * 1024 * 1024;

/** A part's bytes in a buffer of their own: the index's buffers are transferred between threads one by one. */
export function readExactly(descriptor: number, position: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const read = readSync(descriptor, bytes, done, length - done, position + done);
    if (read === 0) throw new Error('it is cut short');
    done += read;
  }
  return bytes;
}

/** The header of an open prepared search file and where its body starts, or why it has none. */
export function preparedSearchHeader(descriptor: number): { header: Header; bodyStart: number } | string {
  return headerOf(descriptor, fstatSync(descriptor).size);
}

function headerOf(descriptor: number, size: number): { header: Header; bodyStart: number } | string {
  if (size < magic.length + 4) return 'not a prepared search';
  const start = Buffer.from(readExactly(descriptor, 0, magic.length + 4));
  if (!start.subarray(0, magic.length).equals(magic)) return 'not a prepared search';
  const bodyStart = magic.length + 4 + start.readUInt32LE(magic.length);
  if (bodyStart > size) return 'its header is cut short';
  try {
    const text = Buffer.from(readExactly(descriptor, magic.length + 4, bodyStart - magic.length - 4)).toString('utf8');
    return { header: JSON.parse(text) as Header, bodyStart };
  } catch {
    return 'its header is not readable';
  }
}

function digestOfFile(header: Header, descriptor: number, from: number, to: number): string {
  const { digest: _digest, ...described } = header;
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(digestChunk);
  for (let position = from; position < to; ) {
    const read = readSync(descriptor, chunk, 0, Math.min(digestChunk, to - position), position);
    if (read === 0) break;
    hash.update(chunk.subarray(0, read));
    position += read;
  }
  return digestOf(described, hash.digest('hex'));
}

/** Reads a build's prepared search for pages of `key` (`readSearchFile`). */
export function readPreparedSearch(siteDirectory: string, key: string): PreparedSearch {
  return readSearchFile(path.join(siteDirectory, preparedSearchFile), key, `the build has no ${preparedSearchFile}`);
}

/**
 * Reads a search file for pages of `key`: checks its version, its code, its key and its bytes' digest, reads the
 * index, and leaves the sections to be read part by part. `missing` is why there is none when the file is not there.
 */
export function readSearchFile(file: string, key: string, missing: string): PreparedSearch {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch {
    return { kind: 'missing', reason: missing };
  }
  // Open until its sections are read: a prepared search written over it meanwhile is another file.
  let keepOpen = false;
  try {
    const size = fstatSync(descriptor).size;
    const read = headerOf(descriptor, size);
    if (typeof read === 'string') return { kind: 'corrupt', reason: read };
    const { header, bodyStart } = read;
    if (header.format !== formatVersion) return { kind: 'stale', reason: `made in format ${header.format}` };
    if (header.code !== preparedSearchCode) return { kind: 'stale', reason: 'made by another version of the server' };
    if (header.key !== key) return { kind: 'stale', reason: 'made for other pages' };
    if (digestOfFile(header, descriptor, bodyStart, size) !== header.digest) {
      return { kind: 'corrupt', reason: 'its bytes do not match their digest' };
    }
    const loaded = decode(header, descriptor, bodyStart, size - bodyStart, file);
    keepOpen = true;
    return { kind: 'loaded', ...loaded };
  } catch (error) {
    return { kind: 'corrupt', reason: (error as Error).message };
  } finally {
    if (!keepOpen) closeSync(descriptor);
  }
}

function decode(header: Header, descriptor: number, bodyStart: number, bodyLength: number, file: string) {
  const parts = new Map(header.parts.map((part) => [part.name, part]));
  const bytesOf = (name: string, kinds: ReadonlyArray<Part['kind']>) => {
    const part = parts.get(name);
    if (!part || !kinds.includes(part.kind) || part.offset < 0 || part.offset + part.length > bodyLength) {
      throw new Error(`its ${name} is missing`);
    }
    return { kind: part.kind, bytes: readExactly(descriptor, bodyStart + part.offset, part.length) };
  };
  const text = (name: string) => Buffer.from(bytesOf(name, ['json']).bytes).toString('utf8');
  const array = (name: string) => {
    const { kind, bytes } = bytesOf(name, Object.keys(arrayTypes) as Array<keyof typeof arrayTypes>);
    return new arrayTypes[kind as keyof typeof arrayTypes](bytes.buffer as ArrayBuffer);
  };
  const index = {
    ...Object.fromEntries(packedArrays.map(([name]) => [name, array(name)])),
    documentCount: header.documentCount,
    fieldCount: header.fieldCount,
    terms: JSON.parse(text('terms')) as string[],
    spellingWords: JSON.parse(text('spellingWords')) as string[],
  } as PackedIndex;
  const latent =
    header.dimensions === undefined
      ? undefined
      : {
          dimensions: header.dimensions,
          termVectors: array('termVectors') as Float32Array,
          sectionVectors: array('sectionVectors') as Int8Array,
        };
  // Every part is where the header says before any is sent: a bad one refuses the file, not a start half-way.
  for (let at = 0; at < header.sectionParts; at += 1) {
    const named = [`sections.${at}`, `bodies.${at}`, `bodyOffsets.${at}`, `names.${at}`].map((name) => parts.get(name));
    if (named.some((part) => !part || part.offset < 0 || part.offset + part.length > bodyLength)) {
      throw new Error('its sections are missing');
    }
  }
  // The bodies stay in the file: the server's thread reads a section's when it is asked for (body-file.ts).
  const bodiesInFile = {
    file,
    digest: header.digest,
    partOffsets: Array.from({ length: header.sectionParts }, (_, at) => parts.get(`bodies.${at}`)?.offset ?? 0),
  };
  const sectionParts: SectionParts = {
    count: header.sectionParts,
    part: (at) => ({
      heads: text(`sections.${at}`),
      bodies: { ...bodiesInFile, part: at },
      offsets: array(`bodyOffsets.${at}`) as Int32Array,
      names: array(`names.${at}`) as Uint8Array,
    }),
    close: () => closeSync(descriptor),
  };
  return { sectionParts, index: latent ? { ...index, latent } : index };
}
