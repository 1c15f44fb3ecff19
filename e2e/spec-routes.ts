/**
 * The routes of product spec section 2, with its placeholders resolved as issue 2 says
 * ({product} = acme, {name} = 2025; the two {token} entries are unknown and left out).
 */
export const specDocRoutes = [
  '/',
  '/ai-code-review-guideline/',
  '/acme-react-app-artifacts/',
  '/backend-dev-rdr',
  '/basic-review-summary-with-chroma/',
  '/bigquery-clustering-and-partition',
  '/case-study-of-mixin/',
  '/cloudflare-tunnel',
  '/coding-standard/',
  '/common-pitfalls',
  '/cost-optimization-guideline/',
  '/dev-flow/',
  '/Development Resources/shopify-auth-managed-migration',
  '/development-onboarding/',
  '/development-team-workflow/',
  '/error_handling/',
  '/faqs/',
  '/final_exam/',
  '/firebase-gcp-pitfalls/',
  '/firestore-ttl',
  '/frontend-dev-rdr',
  '/gcp-further-dive',
  '/getting_started/',
  '/getting-started-acme-cli/',
  '/getting-started-firebase-serverless/',
  '/getting-started-shopify/',
  '/go-live-procedure',
  '/guide-using-cloud-tasks',
  '/installing-typesense-instance',
  '/koajs/',
  '/nodejs_basic_exercise/',
  '/nodejs_basic/',
  '/points-and-kpis/',
  '/qa-qc-checkpoints/',
  '/reactjs_basic/',
  '/reactjs-alternative/',
  '/reactjs-shopify-polaris/',
  '/self-learning/how-to-self-learning',
  '/setting-up-a-staging',
  '/setting-up-gitlab-runner',
  '/shopify-theme-liquid/',
  '/support-procedure',
  '/sync-firestore-to-big-query/',
  '/techlead-rdr',
  '/training-member-guideline/',
  '/trunkbase-develoment-flow',
  '/ts-leader-rdr',
  '/update-app-bridge-v4',
  '/updating-acme-core-v3',
  '/use-wsl-basic',
  '/webstorm-tips/',
  '/Workshops/shopify-market-sharing-2025',
] as const;

export const specTagRoutes = [
  '/tags',
  '/tags/cloudflare',
  '/tags/development',
  '/tags/linux',
  '/tags/networking',
  '/tags/tunnel',
  '/tags/windows',
  '/tags/wsl',
] as const;

/** Beyond the spec's list: the access-tokens page of issue 28 (personal tokens for scripts and coding agents). */
export const specOtherRoutes = ['/docs/', '/search', '/dev-copilot', '/access-tokens'] as const;
/** Pages served to the docs maintainers alone (MAINTAINERS); every other reader gets the 404 page there. */
export const maintainerRoutes = ['/insights'] as const;

export const topNavigation = [
  { label: 'Training Docs', path: '/getting_started/' },
  { label: 'Coding Standard', path: '/coding-standard/' },
  { label: 'Dev Flow', path: '/dev-flow/' },
  { label: 'Self-learning', path: '/self-learning/how-to-self-learning' },
] as const;

/** A route as a browser requests it: the space of "Development Resources" percent-encoded. */
export const requestPathOf = (route: string) => encodeURI(route);
