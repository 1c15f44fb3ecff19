import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type DocSection, readDocPageSections } from './doc-page.js';

export type { DocSection } from './doc-page.js';

/** Generated pages that are not docs, by their folder in the build. */
const generatedPages = [/^search$/, /^docs$/, /^tags(\/|$)/];

/** Folders (relative, `/`-separated) under the build that hold an index.html. */
function pageFolders(buildDirectory: string): string[] {
  return readdirSync(buildDirectory, { recursive: true, encoding: 'utf8' })
    .map((entry) => entry.split(path.sep).join('/'))
    .filter((entry) => entry === 'index.html' || entry.endsWith('/index.html'))
    .map((entry) => entry.slice(0, -'index.html'.length).replace(/\/$/, ''))
    .filter((folder) => !generatedPages.some((pattern) => pattern.test(folder)))
    .sort();
}

const urlPathOf = (folder: string) => `/${folder.split('/').map(encodeURIComponent).join('/')}`;

/** Every section of every doc page in a built Docusaurus site (the folder holding index.html and 404.html). */
export function readDocSections(siteDirectory: string): DocSection[] {
  return pageFolders(siteDirectory).flatMap((folder) =>
    readDocPageSections(readFileSync(path.join(siteDirectory, folder, 'index.html'), 'utf8'), urlPathOf(folder)),
  );
}

/** The same, one page at a time with the event loop free in between: for a rebuild while the server answers. */
export async function readDocSectionsInBackground(siteDirectory: string): Promise<DocSection[]> {
  const sections: DocSection[] = [];
  for (const folder of pageFolders(siteDirectory)) {
    const html = await readFile(path.join(siteDirectory, folder, 'index.html'), 'utf8');
    sections.push(...readDocPageSections(html, urlPathOf(folder)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return sections;
}
