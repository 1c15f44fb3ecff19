import { describe, expect, it } from 'vitest';
import { buildDocsIndex, type SidebarItem } from './build-docs-index';

const doc = (id: string) => ({ id, title: `Title of ${id}`, description: `About ${id}`, permalink: `/${id}` });
const docs = ['welcome', 'a', 'b', 'c', 'faqs'].map(doc);

describe('buildDocsIndex', () => {
  it('turns each category into a section, in sidebar order, nested categories flattened', () => {
    const sidebar: SidebarItem[] = [
      { type: 'doc', id: 'welcome', label: 'Welcome' },
      {
        type: 'category',
        label: 'Guides',
        items: [
          { type: 'doc', id: 'b' },
          { type: 'category', label: 'Deeper', items: [{ type: 'doc', id: 'a' }] },
          { type: 'link' },
        ],
      },
      { type: 'doc', id: 'faqs' },
    ];
    const sections = buildDocsIndex(sidebar, docs);
    expect(sections.map((section) => [section.label, section.docs.map((entry) => entry.id)])).toEqual([
      ['Welcome', ['welcome']],
      ['Guides', ['b', 'a']],
      ['Title of faqs', ['faqs']],
    ]);
    expect(sections[1]?.docs[0]).toEqual({ id: 'b', title: 'Title of b', description: 'About b', permalink: '/b' });
  });

  it('fails loudly when the sidebar names a doc that does not exist', () => {
    expect(() => buildDocsIndex([{ type: 'doc', id: 'missing' }], docs)).toThrow(/"missing"/);
  });
});
