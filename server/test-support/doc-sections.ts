import type { Block, DocSection } from '../src/search/doc-page.js';

/** The plain text a reader sees of some blocks, as the section reader would give it. */
const textOf = (blocks: readonly Block[]) =>
  blocks
    .map((block) => {
      if (block.kind === 'text') return block.markdown;
      if (block.kind === 'list') return block.items.join(' ');
      if (block.kind === 'code') return block.code;
      return block.rows.flat().join(' ');
    })
    .join(' ');

/** A doc section for tests: an h2 of `page`, with blocks (or one paragraph of text). */
export function docSection(page: string, pageTitle: string, heading: string, content: string | Block[]): DocSection {
  const blocks: Block[] = typeof content === 'string' ? [{ kind: 'text', markdown: content }] : content;
  return {
    id: `${page}#${heading}`,
    pageTitle,
    pageUrl: page,
    heading,
    parentHeading: undefined,
    level: 2,
    url: `${page}#${heading.toLowerCase().replace(/\s+/g, '-')}`,
    text: textOf(blocks),
    blocks,
    breadcrumbs: [],
    keywords: [],
  };
}
