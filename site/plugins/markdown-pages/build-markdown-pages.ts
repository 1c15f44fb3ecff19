import { absoluteLinks } from '@acme/contract/markdown-pages';
import type { DocsIndexSection } from '../docs-index/build-docs-index';

/** A doc as the docs plugin loaded it: enough to write its Markdown and list it. */
export type MarkdownSourceDoc = {
  id: string;
  title: string;
  description: string;
  permalink: string;
  /** The file's text as written, front matter included. */
  raw: string;
};

export type MarkdownFile = { path: string; text: string };

/** `/coding-standard/` -> `/coding-standard.md`, `/firestore-ttl` -> `/firestore-ttl.md`, `/` -> `/index.md`. */
export function markdownPathOf(permalink: string): string {
  const trimmed = permalink.replace(/\/+$/, '');
  return `${trimmed || '/index'}.md`;
}

const frontMatter = /^---\r?\n[\s\S]*?\r?\n---\r?\n/;
/** A page as Markdown: its title as the heading the page shows, its body without front matter, links absolute. */
export function pageMarkdown(doc: MarkdownSourceDoc, origin: string): string {
  const body = doc.raw.replace(frontMatter, '').trim();
  const heading = /^#\s/.test(body) ? '' : `# ${doc.title}\n\n`;
  return `${heading}${absoluteLinks(body, origin)}\n`;
}

/**
 * Every doc's Markdown at its `.md` address, `/llms.txt` (the handbook's title and description, then each sidebar
 * category's pages: title, link and description, https://llmstxt.org) and `/llms-full.txt` (every page in full, in
 * the same order). Docs the sidebar leaves out are listed under "Other pages".
 */
export function buildMarkdownPages(options: {
  title: string;
  description: string;
  origin: string;
  sections: DocsIndexSection[];
  docs: MarkdownSourceDoc[];
}): MarkdownFile[] {
  const { origin } = options;
  const docsById = new Map(options.docs.map((doc) => [doc.id, doc]));
  const listed = new Set(options.sections.flatMap((section) => section.docs.map((doc) => doc.id)));
  const others = options.docs.filter((doc) => !listed.has(doc.id));
  const sections = [
    ...options.sections.map((section) => ({ label: section.label, ids: section.docs.map((doc) => doc.id) })),
    ...(others.length > 0 ? [{ label: 'Other pages', ids: others.map((doc) => doc.id) }] : []),
  ];
  const inOrder = sections
    .flatMap((section) => section.ids)
    .map((id) => {
      const doc = docsById.get(id);
      if (!doc) throw new Error(`markdown-pages: the sidebar lists "${id}", which was not loaded.`);
      return doc;
    });
  const pages = [...new Map(inOrder.map((doc) => [doc.id, doc])).values()].map((doc) => ({
    doc,
    path: markdownPathOf(doc.permalink),
    text: pageMarkdown(doc, origin),
  }));
  const pathOf = new Map(pages.map((page) => [page.doc.id, encodeURI(page.path)]));
  const index = [
    `# ${options.title}`,
    '',
    `> ${options.description}`,
    '',
    `Every page is also served as Markdown at its address with \`.md\`; ${origin}/llms-full.txt holds them all.`,
    ...sections.flatMap((section) => [
      '',
      `## ${section.label}`,
      '',
      ...section.ids.map((id) => {
        const doc = docsById.get(id) as MarkdownSourceDoc;
        return `- [${doc.title}](${origin}${pathOf.get(id)})${doc.description ? `: ${doc.description}` : ''}`;
      }),
    ]),
    '',
  ].join('\n');
  const full = pages.map((page) => `<!-- ${origin}${encodeURI(page.path)} -->\n${page.text}`).join('\n');
  return [
    ...pages.map(({ path, text }) => ({ path, text })),
    { path: '/llms.txt', text: index },
    { path: '/llms-full.txt', text: `# ${options.title}\n\n> ${options.description}\n\n${full}` },
  ];
}
