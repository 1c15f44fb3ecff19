import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { preparedSearchFile, preparingMarker } from '../search/prepared-search.js';
import type { BuiltPage, DocSection } from '../search/sections.js';
import { canonicalPathOf } from './canonical-paths.js';
import { inlineScriptHashes } from './content-security-policy.js';
import { heldSlabs } from './held-slabs.js';
import { withPublicOrigin } from './markdown-origin.js';

/** How a file of the build can be sent; a compressed twin (x.js.br, x.js.gz) is never served under its own name. */
export type Encoding = 'br' | 'gzip' | 'identity';
const twinSuffix: Record<Exclude<Encoding, 'identity'>, string> = { br: '.br', gzip: '.gz' };

/** One file of the build as read: its bytes in every encoding held in memory, or where to stream a large one from. */
export type BuiltFile = {
  /** The URL path it is served at, e.g. "/assets/js/main.1a2b.js". */
  urlPath: string;
  /** Of the uncompressed bytes, so every encoding of one version shares it and any change moves it. */
  etag: string;
  held: Partial<Record<Encoding, Uint8Array>>;
  /** Encodings too large to hold, streamed from disk. */
  onDisk: Partial<Record<Encoding, string>>;
  /**
   * The same bytes as the file of the build served (its etag unchanged): `held` and `onDisk` are left empty, and the
   * served file's are taken, so an unchanged file is neither moved between threads nor held twice.
   */
  unchanged?: true;
};

/** What a rebuild needs of the build served to know its unchanged files: each file's etag and bytes held. */
export type ServedEtags = ReadonlyMap<string, { etag: string; heldBytes: number }>;

/** Everything a request needs from one build, read in one pass so that none of it mixes two builds. */
export type BuiltSite = BuiltFiles & {
  /** The doc pages' sections, for the search engine. */
  sections: readonly DocSection[];
};

/** A build's files as read, before its sections are known. */
export type BuiltFiles = {
  /** Changes whenever any file is added, removed or rewritten. */
  fingerprint: string;
  files: BuiltFile[];
  /** Of every inline script in the pages, for the CSP. */
  scriptHashes: string[];
  /** Each page's one address ("/coding-standard/", "/cloudflare-tunnel") by its file ("/coding-standard/index.html"). */
  canonicalPaths: Array<[file: string, canonicalPath: string]>;
  /** Of the pages' text: two builds with equal keys have equal sections. */
  sectionsKey: string;
  /** When the build finished (ms since the epoch): Docusaurus writes 404.html last. */
  builtAt: number;
};

export type HoldLimits = {
  /** A larger encoding of a file is streamed from disk instead of held. */
  maxFileBytes: number;
  /** Once this much is held, further files are streamed too. */
  maxTotalBytes: number;
};

/**
 * What tells one version of a file from the next without reading it. The size and modification time alone miss a file
 * rewritten in place with as many bytes and its time kept or set back (`cp -p`, `tar -x`, a reproducible build's fixed
 * time): the server would then keep serving the old etag, and the old bytes when held. The change time and inode are
 * set by the kernel on any write or replacement, and no copy can set them back.
 */
type Listing = { relative: string; size: number; modifiedAt: number; changedAt: number; inode: number };

/** One buffer every file is read into in turn, grown as needed; a file whose bytes are kept is copied out of it. */
let scratch = Buffer.allocUnsafeSlow(1024 * 1024);

/**
 * A file's bytes, in the scratch buffer until the next file is read. Most are only hashed and looked at (a page with
 * its compressed twins held): read each into a buffer of its own, a hundred times the handbook's pages were some 250
 * MB for the collector on every rebuild, and the allocator kept much of it from the process after.
 */
function readToScratch(file: string): Buffer {
  const descriptor = openSync(file, 'r');
  try {
    const size = fstatSync(descriptor).size;
    if (size > scratch.length) scratch = Buffer.allocUnsafeSlow(Math.max(size, scratch.length * 2));
    let done = 0;
    while (done < size) {
      const count = readSync(descriptor, scratch, done, size - done, done);
      if (count === 0) break;
      done += count;
    }
    return scratch.subarray(0, done);
  } finally {
    closeSync(descriptor);
  }
}

/** Every regular file under the build (symlinks are not followed), with what identifies its version. */
function listFiles(siteDirectory: string): Listing[] {
  const files: Listing[] = [];
  const walk = (directory: string, relative: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(directory, entry.name), child);
      else if (entry.isFile()) {
        const stats = statSync(path.join(directory, entry.name));
        files.push({
          relative: child,
          size: stats.size,
          modifiedAt: stats.mtimeMs,
          changedAt: stats.ctimeMs,
          inode: stats.ino,
        });
      }
    }
  };
  walk(siteDirectory, '');
  return files.sort((a, b) => (a.relative < b.relative ? -1 : 1));
}

function fingerprintOfListing(listing: readonly Listing[]): string {
  const hash = createHash('sha1');
  for (const file of listing) {
    hash.update(`${file.relative}\0${file.size}\0${file.modifiedAt}\0${file.changedAt}\0${file.inode}\n`);
  }
  return hash.digest('hex');
}

/** What changes when the build does, from file names, sizes and times only: cheap enough to look at often. */
export const fingerprintOf = (siteDirectory: string) => fingerprintOfListing(listFiles(siteDirectory));

/** Why a build without its 404 page is not served: Docusaurus writes that page last. */
export const unfinishedBuild = 'the build has no 404.html yet (unfinished)';

/** Files of the build that are never served: the prepared search (and its half-written twin) is the server's own. */
const notServed = new Set([preparedSearchFile, preparingMarker]);

/**
 * Reads a finished build: every file with its precompressed twins, the CSP hashes, and the pages whose doc sections
 * are parsed unless the build's prepared search has them (under `sectionsKey`). Runs in a worker thread
 * (built-site-worker.ts) so that the server goes on answering meanwhile.
 */
export function readBuiltSite(
  siteDirectory: string,
  limits: HoldLimits,
  /** Put in the Markdown pages' links (markdown-origin.ts); without it they are served as built. */
  publicOrigin?: string,
  served?: ServedEtags,
): { site: BuiltFiles; pages: BuiltPage[]; heldBuffers: ArrayBuffer[] } {
  const slabs = heldSlabs();
  const listing = listFiles(siteDirectory);
  const sizes = new Map(listing.map((file) => [file.relative, file.size]));
  const files: BuiltFile[] = [];
  const pages: BuiltPage[] = [];
  const scriptHashes = new Set<string>();
  const canonicalPaths: BuiltSite['canonicalPaths'] = [];
  const pagesHash = createHash('sha1');
  let heldBytes = 0;
  const fits = (size: number) => size <= limits.maxFileBytes && heldBytes + size <= limits.maxTotalBytes;
  // Assets first: every page loads them, so they are held whatever the number of pages, which are held while room is.
  const isAsset = (file: Listing) => file.relative.startsWith('assets/');
  for (const file of [...listing.filter(isAsset), ...listing.filter((file) => !isAsset(file))]) {
    if (/\.(br|gz)$/.test(file.relative) || notServed.has(file.relative)) continue;
    const diskPath = path.join(siteDirectory, file.relative);
    const read = readToScratch(diskPath);
    const rewritten = publicOrigin === undefined ? undefined : withPublicOrigin(file.relative, read, publicOrigin);
    const bytes = rewritten?.bytes ?? read;
    if (file.relative.endsWith('.html')) {
      // Read again when its sections are parsed: thousands of pages are not held as text meanwhile.
      pages.push({ relative: file.relative, html: () => readFileSync(diskPath, 'utf8') });
      for (const hash of inlineScriptHashes([bytes])) scriptHashes.add(hash);
      const canonicalPath = canonicalPathOf(`/${file.relative}`, bytes);
      if (canonicalPath !== undefined) canonicalPaths.push([`/${file.relative}`, canonicalPath]);
    }
    const built: BuiltFile = {
      urlPath: `/${file.relative}`,
      etag: `"${createHash('sha1').update(bytes).digest('base64url')}"`,
      held: {},
      onDisk: {},
    };
    const same = served?.get(built.urlPath);
    if (same?.etag === built.etag) {
      built.unchanged = true;
      heldBytes += same.heldBytes;
    } else if (rewritten) {
      slabs.hold(built, 'gzip', rewritten.gzip);
      heldBytes += rewritten.gzip.length;
    }
    for (const encoding of ['br', 'gzip'] as const) {
      if (rewritten || built.unchanged) break;
      const twinSize = sizes.get(file.relative + twinSuffix[encoding]);
      if (twinSize === undefined) continue;
      if (fits(twinSize)) {
        slabs.holdFromDisk(built, encoding, diskPath + twinSuffix[encoding], twinSize);
        heldBytes += twinSize;
      } else built.onDisk[encoding] = diskPath + twinSuffix[encoding];
    }
    // With a gzip twin the identity bytes are rarely asked for: they are unzipped from the twin then.
    if (!built.held.gzip && !built.unchanged) {
      if (fits(bytes.length)) {
        slabs.hold(built, 'identity', bytes);
        heldBytes += bytes.length;
      } else built.onDisk.identity = diskPath;
    }
    if (file.relative.endsWith('.html')) pagesHash.update(`${file.relative}\0${built.etag}\n`);
    files.push(built);
  }
  const sectionsKey = pagesHash.digest('hex');
  const builtAt = listing.find((file) => file.relative === '404.html')?.modifiedAt ?? Date.now();
  const site = {
    fingerprint: fingerprintOfListing(listing),
    builtAt,
    files,
    scriptHashes: [...scriptHashes].sort(),
    canonicalPaths,
    sectionsKey,
  };
  return { site, pages, heldBuffers: slabs.buffers() };
}
