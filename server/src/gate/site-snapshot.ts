import { setImmediate as nextTurn } from 'node:timers/promises';
import { lookup } from 'mrmime';
import type { SearchEngine } from '../search/engine.js';
import { type BuiltFile, type BuiltSite, type Encoding, unfinishedBuild } from './built-site.js';
import { type SecurityHeaders, securityHeaders } from './security-headers.js';
import { takesToken } from './site-files.js';

/** A file ready to send: its headers computed once, its bytes in memory per encoding or on disk when large. */
export type ServedFile = {
  headers: Readonly<Record<string, string>>;
  etag: string;
  held: Partial<Record<Encoding, Buffer>>;
  onDisk: Partial<Record<Encoding, string>>;
};

/** One build as the server serves it; a request reads one snapshot from start to end, so never mixes two builds. */
export type SiteSnapshot = {
  fingerprint: string;
  /** Of its pages' text (built-site.ts): a rebuild with the same key has the same sections. */
  sectionsKey: string;
  files: ReadonlyMap<string, ServedFile>;
  /**
   * Hashed assets of the build before this one that this one dropped: a reader whose page came from it may still load
   * its lazy chunks. Only one build back, so they never pile up.
   */
  retiredAssets: ReadonlyMap<string, ServedFile>;
  notFoundPage: ServedFile;
  /** Each page's one address by its file, for the redirect from the other spelling (see canonical-paths.ts). */
  canonicalPaths: ReadonlyMap<string, string>;
  /** Whether a token is read at a path of this build: a page's (a dot may end it) or one the site refuses (site-files.ts). */
  takesToken: (path: string) => boolean;
  securityHeaders: SecurityHeaders;
  search: SearchEngine;
  /** When it was swapped in (ms since the epoch). */
  loadedAt: number;
  /** When the build itself finished (ms since the epoch), for "since the last docs build" in the insights. */
  builtAt: number;
};

const hashedAsset = /^\/assets\//;
const textual = /^text\/|^application\/(javascript|json|xml|manifest\+json)|\+xml$/;

/** Authenticated responses may sit in the reader's own browser cache, never in a shared one. */
function cacheControlFor(urlPath: string): string {
  return hashedAsset.test(urlPath) ? 'private, max-age=31536000, immutable' : 'private, no-cache';
}

function contentTypeFor(urlPath: string): string {
  const type = lookup(urlPath) ?? 'application/octet-stream';
  return textual.test(type) ? `${type}; charset=utf-8` : type;
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const ownBytes = (held: ServedFile['held']): ServedFile['held'] =>
  Object.fromEntries(
    Object.entries(held).map(([encoding, bytes]) => [encoding, Buffer.from(new Uint8Array(bytes).buffer)]),
  );

/** The bytes a served file holds in memory, all encodings together. */
export const heldBytesOf = (file: ServedFile) =>
  Object.values(file.held).reduce((sum, bytes) => sum + bytes.byteLength, 0);

/**
 * The served files of the previous build, for this build's unchanged ones (built-site.ts). Their bytes stay in the
 * previous build's shared buffers (held-slabs.ts) unless less than half of such a buffer would still be in use: then
 * they are copied out, so that a few unchanged files never keep a whole buffer of old pages alive.
 */
function unchangedFiles(site: BuiltSite, previous: SiteSnapshot | undefined): Map<string, ServedFile> {
  const taken = new Map<string, ServedFile>();
  for (const file of site.files) {
    if (!file.unchanged) continue;
    const served = previous?.files.get(file.urlPath);
    if (!served) throw new Error(`${file.urlPath} was read as unchanged, but the build served has no such file`);
    taken.set(file.urlPath, served);
  }
  const inUse = new Map<ArrayBufferLike, number>();
  for (const file of taken.values()) {
    for (const bytes of Object.values(file.held))
      inUse.set(bytes.buffer, (inUse.get(bytes.buffer) ?? 0) + bytes.length);
  }
  for (const [urlPath, file] of taken) {
    const sparse = Object.values(file.held).some(
      (bytes) => (inUse.get(bytes.buffer) ?? 0) * 2 < bytes.buffer.byteLength,
    );
    if (sparse) taken.set(urlPath, { ...file, held: ownBytes(file.held) });
  }
  return taken;
}

function servedFile(file: BuiltFile): ServedFile {
  const held: ServedFile['held'] = {};
  for (const [encoding, bytes] of Object.entries(file.held) as Array<[Encoding, Uint8Array]>) {
    held[encoding] = asBuffer(bytes);
  }
  return {
    headers: {
      'content-type': contentTypeFor(file.urlPath),
      'cache-control': cacheControlFor(file.urlPath),
      vary: 'Accept-Encoding',
      etag: file.etag,
    },
    etag: file.etag,
    held,
    onDisk: file.onDisk,
  };
}

/** Files made ready per turn of the event loop: a hundred times the handbook's took 25 to 40 ms in one. */
const filesPerTurn = 500;

/**
 * Turns a build read by the worker into what requests are served from, a few hundred files per turn of the event
 * loop. Rejects when the build is not finished.
 */
export async function siteSnapshot(
  site: BuiltSite,
  search: SearchEngine,
  options: { strictTransport: boolean; previous?: SiteSnapshot | undefined },
): Promise<SiteSnapshot> {
  const unchanged = unchangedFiles(site, options.previous);
  const files = new Map<string, ServedFile>();
  for (const [at, file] of site.files.entries()) {
    if (at > 0 && at % filesPerTurn === 0) await nextTurn();
    files.set(file.urlPath, unchanged.get(file.urlPath) ?? servedFile(file));
  }
  // Their bytes are copied out of the previous build's shared buffers (held-slabs.ts): a view of one small chunk would
  // keep a whole 16 MB buffer of that build alive.
  const retiredAssets = new Map(
    [...(options.previous?.files ?? [])]
      .filter(([urlPath]) => hashedAsset.test(urlPath) && !files.has(urlPath))
      .map(([urlPath, file]): [string, ServedFile] => [urlPath, { ...file, held: ownBytes(file.held) }]),
  );
  // Docusaurus writes its 404 page last: a build without it is still being written.
  const notFoundPage = files.get('/404.html');
  if (!notFoundPage) throw new Error(unfinishedBuild);
  // A site that had doc pages and has none now is a broken build, not a new one.
  if (site.sections.length === 0 && (options.previous?.search.sections.length ?? 0) > 0) {
    throw new Error('the build has no doc pages');
  }
  const canonicalPaths = new Map(site.canonicalPaths);
  return {
    fingerprint: site.fingerprint,
    sectionsKey: site.sectionsKey,
    files,
    retiredAssets,
    notFoundPage,
    canonicalPaths,
    takesToken: (path) => takesToken(path, files, canonicalPaths),
    securityHeaders: securityHeaders({ scriptHashes: site.scriptHashes, strictTransport: options.strictTransport }),
    search,
    loadedAt: Date.now(),
    builtAt: site.builtAt,
  };
}
