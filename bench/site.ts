/**
 * Prints the site's figures: clean build time, first-paint JS of a doc page, whether any search index ships, pages and words.
 * Never fails on a number; it only measures.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser, listSiteFiles, siteBuildDirectory, startServer } from '../e2e/harness';
import { signInContext } from '../e2e/pages/sign-in-pages';
import { proseWordCount, readDocSources } from '../site/tests/doc-sources';

const siteDirectory = path.dirname(siteBuildDirectory);
const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function cleanBuildSeconds(): number {
  rmSync(siteBuildDirectory, { recursive: true, force: true });
  rmSync(path.join(siteDirectory, '.docusaurus'), { recursive: true, force: true });
  rmSync(path.join(siteDirectory, 'node_modules', '.cache'), { recursive: true, force: true });
  const started = performance.now();
  const build = spawnSync('npm', ['run', 'build'], { cwd: siteDirectory, stdio: 'ignore' });
  if (build.status !== 0) throw new Error('The site build failed; run `npm run build` to see why.');
  return (performance.now() - started) / 1000;
}

async function firstPaintJavaScript(route: string) {
  const server = await startServer({ LOG_LEVEL: 'silent' });
  const browser = await launchBrowser();
  const context = await browser.newContext();
  await signInContext(context, server.baseUrl);
  const page = await context.newPage();
  const scripts = new Set<string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname);
  });
  await page.goto(server.baseUrl + route, { waitUntil: 'networkidle' });
  await browser.close();
  await server.close();
  if (scripts.size === 0) throw new Error(`${route} loaded no script: is the reader signed in?`);
  const gzipped = [...scripts].reduce(
    (total, script) => total + gzipSync(readFileSync(path.join(siteBuildDirectory, script))).length,
    0,
  );
  return { files: scripts.size, gzipped };
}

const buildSeconds = cleanBuildSeconds();
const docPage = await firstPaintJavaScript('/firestore-ttl');
const docs = readDocSources();
const words = docs.map((doc) => proseWordCount(doc.body));

console.log('Site figures');
console.log(
  `  clean build (npm run build)        ${buildSeconds.toFixed(1)} s, including brotli and gzip precompression`,
);
console.log(`  doc page first-paint JS            ${kilobytes(docPage.gzipped)} gzipped in ${docPage.files} files`);
const downloadedIndexes = [...listSiteFiles(siteBuildDirectory)].filter((file) => /search-index|lunr/.test(file));
console.log(
  `  search index in the build          ${downloadedIndexes.length ? downloadedIndexes.join(', ') : 'none: the search box asks the server'}`,
);
console.log(`  doc pages                          ${docs.length}`);
console.log(
  `  words of body text                 ${words.reduce((a, b) => a + b, 0)} (min ${Math.min(...words)}, median ${words.sort((a, b) => a - b)[Math.floor(words.length / 2)]})`,
);
