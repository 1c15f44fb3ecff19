import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
// The one module of the contract without zod: Docusaurus loads plugins through its own module loader.
import { builtMarkdownOrigin } from '@acme/contract/markdown-pages';
import type { LoadedContent } from '@docusaurus/plugin-content-docs';
import type { LoadContext, Plugin } from '@docusaurus/types';
import { buildDocsIndex, type SidebarItem } from '../docs-index/build-docs-index';
import { buildMarkdownPages, type MarkdownSourceDoc } from './build-markdown-pages';

/**
 * Writes every doc page as Markdown (`/coding-standard.md`), `/llms.txt` and `/llms-full.txt` into the build, for
 * scripts and coding agents; the server gates them like any built file (a session, or a personal access token).
 * Links are made absolute to a stand-in origin that the server replaces with its PUBLIC_URL when it reads the build
 * (server/src/gate/markdown-origin.ts), so an image built without knowing its address links right wherever it runs.
 */
export default function markdownPagesPlugin(context: LoadContext): Plugin {
  let loaded: { sidebar: SidebarItem[]; docs: MarkdownSourceDoc[] } | undefined;
  return {
    name: 'markdown-pages',
    async allContentLoaded({ allContent }) {
      const docsContent = allContent['docusaurus-plugin-content-docs']?.default as LoadedContent | undefined;
      const version = docsContent?.loadedVersions[0];
      const sidebar = version?.sidebars.handbook as SidebarItem[] | undefined;
      if (!version || !sidebar) throw new Error('markdown-pages: the docs plugin loaded no "handbook" sidebar.');
      const docs = await Promise.all(
        version.docs.map(async (doc) => ({
          id: doc.id,
          title: doc.title,
          description: doc.description,
          permalink: doc.permalink,
          raw: await readFile(path.join(context.siteDir, doc.source.replace(/^@site\//, '')), 'utf8'),
        })),
      );
      loaded = { sidebar, docs };
    },
    async postBuild({ outDir, siteConfig }) {
      if (!loaded) throw new Error('markdown-pages: no docs were loaded.');
      const files = buildMarkdownPages({
        title: siteConfig.title,
        description: siteConfig.tagline,
        origin: builtMarkdownOrigin,
        sections: buildDocsIndex(loaded.sidebar, loaded.docs),
        docs: loaded.docs,
      });
      for (const file of files) {
        const target = path.join(outDir, file.path);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, file.text);
      }
    },
  };
}
