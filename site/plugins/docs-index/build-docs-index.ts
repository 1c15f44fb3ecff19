/** One sidebar category (or a top-level doc) with the docs under it, as the /docs/ page lists them. */
export type DocsIndexSection = {
  label: string;
  docs: DocsIndexEntry[];
};

export type DocsIndexEntry = {
  id: string;
  title: string;
  description: string;
  permalink: string;
};

export type SidebarItem =
  | { type: 'doc'; id: string; label?: string }
  | { type: 'category'; label: string; items: SidebarItem[] }
  | { type: string };

type DocMetadata = { id: string; title: string; description: string; permalink: string };

/**
 * Walks the sidebar in order: each category becomes a section listing every doc beneath it (nested categories
 * flattened); a doc at the top level becomes a section of its own. Fails when the sidebar names a missing doc.
 */
export function buildDocsIndex(sidebar: SidebarItem[], docs: DocMetadata[]): DocsIndexSection[] {
  const docsById = new Map(docs.map((doc) => [doc.id, doc]));
  const toEntry = (id: string): DocsIndexEntry => {
    const doc = docsById.get(id);
    if (!doc) throw new Error(`The sidebar lists the doc "${id}", which does not exist.`);
    return { id: doc.id, title: doc.title, description: doc.description, permalink: doc.permalink };
  };
  const docIdsUnder = (items: SidebarItem[]): string[] =>
    items.flatMap((item) => {
      if (item.type === 'doc' && 'id' in item) return [item.id];
      if (item.type === 'category' && 'items' in item) return docIdsUnder(item.items);
      return [];
    });

  return sidebar.flatMap((item): DocsIndexSection[] => {
    if (item.type === 'category' && 'items' in item) {
      return [{ label: item.label, docs: docIdsUnder(item.items).map(toEntry) }];
    }
    if (item.type === 'doc' && 'id' in item) {
      const entry = toEntry(item.id);
      return [{ label: item.label ?? entry.title, docs: [entry] }];
    }
    return [];
  });
}
