import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type DocSection, readDocPageSections } from './doc-page.js';

export type { DocSection } from './doc-page.js';

/** Generated pages that are not docs, by their folder in the build. */
const generatedPages = [/^search$/, /^docs$/, /^tags(\/|$)/];

/**
 * A file of the build by its path relative to the build (`/`-separated), and how to read its text: read when parsed,
 * one page at a time, so that a handbook of thousands of pages is never held as HTML all at once.
 */
export type BuiltPage = { relative: string; html: () => string };

/** The folder of a doc page's index.html ("koajs" for "koajs/index.html"), or undefined for any other file. */
function docPageFolder(relative: string): string | undefined {
  if (relative !== 'index.html' && !relative.endsWith('/index.html')) return undefined;
  const folder = relative.slice(0, -'index.html'.length).replace(/\/$/, '');
  return generatedPages.some((pattern) => pattern.test(folder)) ? undefined : folder;
}

const urlPathOf = (folder: string) => `/${folder.split('/').map(encodeURIComponent).join('/')}`;

/** Every section of the doc pages among these files of a built Docusaurus site, in folder order. */
export function docSectionsOf(files: Iterable<BuiltPage>): DocSection[] {
  return [...docSectionsIn(files)];
}

/** The same, a page at a time: what is done with each section need not wait for the whole site to be parsed. */
export function* docSectionsIn(files: Iterable<BuiltPage>): Generator<DocSection> {
  const pages = [...files].flatMap((file) => {
    const folder = docPageFolder(file.relative);
    return folder === undefined ? [] : [{ folder, html: file.html }];
  });
  pages.sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
  for (const page of pages) yield* readDocPageSections(page.html(), urlPathOf(page.folder));
}

/** Every section of every doc page in a built Docusaurus site (the folder holding index.html and 404.html). */
export function readDocSections(siteDirectory: string): DocSection[] {
  const pages = readdirSync(siteDirectory, { recursive: true, encoding: 'utf8' })
    .map((entry) => entry.split(path.sep).join('/'))
    .filter((relative) => docPageFolder(relative) !== undefined)
    .map((relative) => ({ relative, html: () => readFileSync(path.join(siteDirectory, relative), 'utf8') }));
  return docSectionsOf(pages);
}
