import type { LoadedContent } from '@docusaurus/plugin-content-docs';
import type { Plugin } from '@docusaurus/types';
import { buildDocsIndex, type SidebarItem } from './build-docs-index';

/** Adds /docs/: every doc of the handbook sidebar, grouped by category, with its one-line description. */
export default function docsIndexPlugin(): Plugin {
  return {
    name: 'docs-index',
    async allContentLoaded({ allContent, actions }) {
      const docsContent = allContent['docusaurus-plugin-content-docs']?.default as LoadedContent | undefined;
      const version = docsContent?.loadedVersions[0];
      if (!version) throw new Error('docs-index: the docs plugin loaded no version.');
      const sidebar = version.sidebars.handbook as SidebarItem[] | undefined;
      if (!sidebar) throw new Error('docs-index: sidebars.ts has no "handbook" sidebar.');
      const sections = buildDocsIndex(sidebar, version.docs);
      const sectionsModule = await actions.createData('docs-index.json', JSON.stringify(sections));
      actions.addRoute({
        path: '/docs/',
        component: '@site/src/components/DocsIndex/index.tsx',
        modules: { sections: sectionsModule },
        exact: true,
      });
    },
  };
}
