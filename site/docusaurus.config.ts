import type * as Preset from '@docusaurus/preset-classic';
import type { Config } from '@docusaurus/types';
import { themes as prismThemes } from 'prism-react-renderer';
import { readablePrismTheme } from './plugins/readable-docs/prism-contrast';
import rehypeReadable from './plugins/readable-docs/rehype-readable';
import { copilotActions, siteFacts, topNavigation } from './site.config';

const config: Config = {
  title: siteFacts.handbookTitle,
  tagline: siteFacts.tagline,
  favicon: 'img/favicon.svg',
  // The origin of the pages' canonical links. The Markdown pages' links get the server's PUBLIC_URL when served.
  url: process.env.PUBLIC_URL?.replace(/\/+$/, '') || 'http://localhost:3000',
  baseUrl: '/',
  trailingSlash: undefined,
  noIndex: true,

  onBrokenLinks: 'throw',
  onBrokenAnchors: 'throw',
  markdown: {
    format: 'detect',
    hooks: { onBrokenMarkdownLinks: 'throw', onBrokenMarkdownImages: 'throw' },
  },
  future: {
    // Every v4 flag but CSS cascade layers: with Rspack their specificity polyfill lifts Infima above our own
    // custom.css, so the handbook's colours (and the chat's link contrast) silently fell back to Infima's blue.
    v4: {
      removeLegacyPostBuildHeadAttribute: true,
      useCssCascadeLayers: false,
      siteStorageNamespacing: true,
      fasterByDefault: true,
      mdx1CompatDisabledByDefault: true,
    },
    faster: true,
  },
  customFields: { copilotActions: copilotActions() },

  i18n: { defaultLocale: 'en', locales: ['en'] },

  presets: [
    [
      'classic',
      {
        docs: {
          routeBasePath: '/',
          sidebarPath: './sidebars.ts',
          tags: '../tags.yml',
          onInlineTags: 'throw',
          breadcrumbs: true,
          rehypePlugins: [rehypeReadable],
        },
        blog: false,
        theme: { customCss: './src/css/custom.css' },
        // The maintainers' page is served to them alone: no reader's sitemap names it.
        sitemap: { changefreq: null, priority: null, ignorePatterns: ['/insights'] },
      } satisfies Preset.Options,
    ],
  ],

  clientModules: ['./src/components/Insights/served-not-found.ts'],

  plugins: [
    './plugins/docs-index/index.ts',
    './plugins/markdown-pages/index.ts',
    './plugins/workspace-packages/index.ts',
  ],

  themeConfig: {
    colorMode: { defaultMode: 'light', respectPrefersColorScheme: true, disableSwitch: false },
    announcementBar: {
      id: siteFacts.announcement.id,
      content: siteFacts.announcement.content,
      isCloseable: true,
      // Docusaurus writes these inline (white and black by default): theme variables make the bar follow dark mode.
      backgroundColor: 'var(--ifm-color-emphasis-100)',
      textColor: 'var(--ifm-font-color-base)',
    },
    navbar: {
      title: siteFacts.handbookTitle,
      logo: { alt: `${siteFacts.companyName} logo`, src: 'img/logo.svg' },
      hideOnScroll: false,
      items: [
        // Side by side where the navbar has room; in the one "Start here" menu where it has not (custom.css).
        ...topNavigation.map((link) => ({ ...link, position: 'left' as const, className: 'navbar-start-here-link' })),
        { type: 'custom-start-here', label: 'Start here', position: 'left' },
        { to: '/docs/', label: 'All docs', position: 'right' },
        { type: 'search', position: 'right' },
        { type: 'custom-insights', position: 'right' },
        { type: 'custom-logout', position: 'right' },
      ],
    },
    docs: { sidebar: { hideable: true, autoCollapseCategories: false } },
    tableOfContents: { minHeadingLevel: 2, maxHeadingLevel: 3 },
    footer: {
      style: 'dark',
      links: [
        {
          title: 'Handbook',
          items: [
            { label: 'Welcome', to: '/' },
            { label: 'All docs', to: '/docs/' },
            { label: 'Tags', to: '/tags' },
            { label: 'Access tokens', to: '/access-tokens' },
          ],
        },
        {
          title: 'Start here',
          items: topNavigation.map((link) => ({ ...link })),
        },
        {
          title: 'Help',
          items: [
            { label: 'FAQs', to: '/faqs/' },
            { label: 'Common pitfalls', to: '/common-pitfalls' },
            { label: 'Support procedure', to: '/support-procedure' },
          ],
        },
      ],
      copyright: `Copyright © ${siteFacts.copyrightYear} ${siteFacts.companyName}. Internal use only.`,
    },
    prism: {
      // Their token colours darkened or lightened to 4.5:1 against the code background (axe, WCAG AA).
      theme: readablePrismTheme(prismThemes.github),
      darkTheme: readablePrismTheme(prismThemes.dracula),
      additionalLanguages: ['bash', 'json', 'yaml', 'toml', 'ini', 'powershell', 'sql', 'diff'],
    },
  } satisfies Preset.ThemeConfig,
};

export default config;
