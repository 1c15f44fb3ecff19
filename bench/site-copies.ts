/** Site builds for bench/serving.ts: what is in one, a copy with ten times the pages, a rebuild written in place. */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { canonicalPathOf } from '../server/src/gate/canonical-paths.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Paths relative to the build of every `index.html`, e.g. "firestore-ttl/index.html". */
function indexFiles(siteDirectory: string): string[] {
  return readdirSync(siteDirectory, { recursive: true, encoding: 'utf8' })
    .filter((file) => path.basename(file) === 'index.html')
    .sort();
}

/**
 * The URL of every page of the build, as a reader requests it: its one address ("/firestore-ttl", "/faqs/"), so that
 * no request is a redirect; a page without a canonical link of its own (a multiplied copy) with a trailing slash.
 */
export function pageUrlPaths(siteDirectory: string): string[] {
  return indexFiles(siteDirectory).map((file) => {
    const html = readFileSync(path.join(siteDirectory, file), 'utf8');
    const urlPath = `/${file.split(path.sep).join('/')}`;
    return encodeURI(canonicalPathOf(urlPath, html) ?? urlPath.slice(0, -'index.html'.length));
  });
}

/** The build's JavaScript and CSS chunks, as URL paths. */
export function assetUrlPaths(siteDirectory: string): string[] {
  return readdirSync(path.join(siteDirectory, 'assets'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => `/assets/${file}`);
}

export function mainScriptUrlPath(siteDirectory: string): string {
  const mainScript = readdirSync(path.join(siteDirectory, 'assets', 'js')).find((file) => /^main\..*\.js$/.test(file));
  if (!mainScript) throw new Error(`${siteDirectory}/assets/js has no main.<hash>.js: rebuild the site.`);
  return `/assets/js/${mainScript}`;
}

/** /firestore-ttl when the build has it, else the first doc page in a folder of its own. */
export function docPageUrlPath(siteDirectory: string): string {
  if (existsSync(path.join(siteDirectory, 'firestore-ttl', 'index.html'))) return '/firestore-ttl';
  const docPage = pageUrlPaths(siteDirectory).find((urlPath) => urlPath !== '/' && !urlPath.startsWith('/search'));
  if (!docPage) throw new Error(`${siteDirectory} has no doc page.`);
  return docPage;
}

export function copyBuild(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
}

/**
 * Copies every top-level folder that holds a page `times - 1` more times under new names (`firestore-ttl-copy-2`
 * and so on), twins included, so the build has about `times` as many pages; assets and 404.html stay as they are.
 * Each copied page names its own address as its canonical link (and og:url), as Docusaurus writes a page: a copy that
 * named the original's would share its sections' links, and the server would hold the links of one handbook, not of
 * `times`.
 */
export function multiplyPages(siteDirectory: string, times: number): void {
  const pageFolders = new Set(
    indexFiles(siteDirectory)
      .map((file) => file.split(path.sep)[0] ?? '')
      .filter((folder) => folder !== 'index.html' && folder !== 'assets'),
  );
  for (const folder of pageFolders) {
    for (let copy = 2; copy <= times; copy++) {
      const copyFolder = `${folder}-copy-${copy}`;
      cpSync(path.join(siteDirectory, folder), path.join(siteDirectory, copyFolder), { recursive: true });
      for (const page of indexFiles(path.join(siteDirectory, copyFolder))) {
        const file = path.join(siteDirectory, copyFolder, page);
        const html = readFileSync(file, 'utf8');
        const moved = withOwnAddress(html, folder, copyFolder);
        // A page that named its own address must name its copy's: else the copies would share links unseen.
        const urlPath = (top: string) => `/${[top, ...page.split(path.sep)].join('/')}`;
        if (canonicalPathOf(urlPath(folder), html) && !canonicalPathOf(urlPath(copyFolder), moved)) {
          throw new Error(`${copyFolder}/${page}: its canonical link could not be moved to the copy`);
        }
        if (moved !== html) {
          const bytes = Buffer.from(moved);
          const twins = twinFiles(file, bytes, brotliCompressSync(bytes, brotliOptions), gzipSync(bytes));
          for (const twin of twins) writeFileSync(twin.file, twin.bytes);
        }
      }
    }
  }
}

/** A page's canonical link and og:url moved from the top folder `from` to `to` (quoted or not, any origin). */
export function withOwnAddress(html: string, from: string, to: string): string {
  return html.replace(
    /(rel=canonical href=|property=og:url content=)(?:"([^"]*)"|([^\s>"]+))/g,
    (whole, attribute: string, quoted: string | undefined, bare: string | undefined) => {
      const address = quoted ?? bare ?? '';
      const pathAt = address.indexOf('/', address.indexOf('//') + 2);
      if (pathAt < 0) return whole;
      const [firstFolder = '', ...rest] = address.slice(pathAt + 1).split('/');
      let decoded: string;
      try {
        decoded = decodeURIComponent(firstFolder);
      } catch {
        return whole;
      }
      if (decoded !== from) return whole;
      // Written as the original was: as it is, or escaped.
      const moved = [address.slice(0, pathAt), firstFolder === from ? to : encodeURIComponent(to), ...rest].join('/');
      return quoted === undefined ? `${attribute}${moved}` : `${attribute}"${moved}"`;
    },
  );
}

/** A middling brotli level: the load generator shares this thread's time. */
const brotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

/** A page's bytes and the precompressed twins the site's build writes beside it, as files to write. */
const twinFiles = (file: string, bytes: Buffer, brotliBytes: Buffer, gzipBytes: Buffer) => [
  { file, bytes },
  { file: `${file}.br`, bytes: brotliBytes },
  { file: `${file}.gz`, bytes: gzipBytes },
];

/** A page's new bytes with its twins. */
async function withTwins(file: string, text: string) {
  const bytes = Buffer.from(text);
  const [brotliBytes, gzipBytes] = await Promise.all([brotli(bytes, brotliOptions), gzipAsync(bytes)]);
  return twinFiles(file, bytes, brotliBytes, gzipBytes);
}

/**
 * A Docusaurus rebuild written over the served build: 404.html goes, every page is rewritten with `marker` appended
 * (precompressed twins too, as the site's build writes them), and 404.html comes back a second later. The new pages
 * are made before anything is touched, so only the writing falls inside the rebuild. Resolves once 404.html is back,
 * with how many files were written and for how long 404.html was missing.
 */
export async function rewriteBuildInPlace(siteDirectory: string, marker: string) {
  const pages = indexFiles(siteDirectory).map((file) => path.join(siteDirectory, file));
  const rewritten = await Promise.all(
    pages.map((page) => withTwins(page, `${readFileSync(page, 'utf8')}\n<!-- ${marker} -->\n`)),
  );
  const notFoundPage = path.join(siteDirectory, '404.html');
  const notFoundBytes = readFileSync(notFoundPage);
  const files = rewritten.flat();
  const removedAt = performance.now();
  rmSync(notFoundPage);
  for (const { file, bytes } of files) writeFileSync(file, bytes);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  writeFileSync(notFoundPage, notFoundBytes);
  return { filesWritten: files.length, millisecondsWithout404: performance.now() - removedAt };
}
