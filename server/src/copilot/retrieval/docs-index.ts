import { createDocsSearchIndex, type DocsSearchIndex } from './search-index.js';
import { readDocSections } from './sections.js';

/** Reads the built site and indexes every doc section. */
export function loadDocsSearchIndex(siteDirectory: string): DocsSearchIndex {
  return createDocsSearchIndex(readDocSections(siteDirectory));
}

/** A build whose index has no doc sections is half-written or broken: the server keeps the previous one. */
export const hasDocSections = (index: DocsSearchIndex) => index.sections.length > 0;
