import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';

/** One sidebar for the whole handbook; the /docs/ index lists the same categories in the same order. */
const sidebars = {
  handbook: [
    { type: 'doc', id: 'welcome', label: 'Welcome' },
    {
      type: 'category',
      label: 'Getting started',
      collapsed: false,
      items: [
        'getting_started/index',
        'development-onboarding/index',
        'training-member-guideline/index',
        'use-wsl-basic',
        'webstorm-tips/index',
        'getting-started-acme-cli/index',
      ],
    },
    {
      type: 'category',
      label: 'Training',
      items: [
        'nodejs_basic/index',
        'nodejs_basic_exercise/index',
        'koajs/index',
        'getting-started-firebase-serverless/index',
        'reactjs_basic/index',
        'reactjs-shopify-polaris/index',
        'reactjs-alternative/index',
        'getting-started-shopify/index',
        'shopify-theme-liquid/index',
        'case-study-of-mixin/index',
        'final_exam/index',
        'self-learning/how-to-self-learning',
      ],
    },
    {
      type: 'category',
      label: 'Coding standards & review',
      items: [
        'coding-standard/index',
        'error_handling/index',
        'ai-code-review-guideline/index',
        'common-pitfalls',
        'qa-qc-checkpoints/index',
      ],
    },
    {
      type: 'category',
      label: 'Dev flow & process',
      items: [
        'dev-flow/index',
        'development-team-workflow/index',
        'trunkbase-develoment-flow',
        'setting-up-a-staging',
        'go-live-procedure',
        'support-procedure',
      ],
    },
    {
      type: 'category',
      label: 'Roles & performance',
      items: ['techlead-rdr', 'ts-leader-rdr', 'frontend-dev-rdr', 'backend-dev-rdr', 'points-and-kpis/index'],
    },
    {
      type: 'category',
      label: 'Firebase & Google Cloud',
      items: [
        'firebase-gcp-pitfalls/index',
        'firestore-ttl',
        'gcp-further-dive',
        'guide-using-cloud-tasks',
        'cost-optimization-guideline/index',
      ],
    },
    {
      type: 'category',
      label: 'Data & AI',
      items: [
        'bigquery-clustering-and-partition',
        'sync-firestore-to-big-query/index',
        'basic-review-summary-with-chroma/index',
        'installing-typesense-instance',
      ],
    },
    {
      type: 'category',
      label: 'Shopify platform',
      items: [
        'Development Resources/shopify-auth-managed-migration',
        'update-app-bridge-v4',
        'updating-acme-core-v3',
        'acme-react-app-artifacts/index',
        'Workshops/shopify-market-sharing-2025',
      ],
    },
    {
      type: 'category',
      label: 'Infrastructure & tools',
      items: ['cloudflare-tunnel', 'setting-up-gitlab-runner'],
    },
    { type: 'doc', id: 'faqs/index', label: 'FAQs' },
  ],
} satisfies SidebarsConfig;

export default sidebars;
