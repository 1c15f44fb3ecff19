/**
 * Questions a developer would ask Dev Copilot, written from the doc sources, each with the page that answers it.
 * Shared by the retrieval test and the benchmark; phrased as people ask, not as the headings read.
 */
export type DocsQuestion = {
  question: string;
  expectedPage: string;
  /** Other pages that state the answer just as fully (the handbook repeats a few facts on purpose). */
  alsoAnsweredBy?: readonly string[];
};

/** Every page that counts as answering a question. */
export const answeringPages = (question: DocsQuestion): string[] => [
  question.expectedPage,
  ...(question.alsoAnsweredBy ?? []),
];

export const docsQuestions: readonly DocsQuestion[] = [
  { question: 'How do I create a TTL policy on expireAt?', expectedPage: '/firestore-ttl' },
  {
    question: 'Why are my expired session docs still showing up in queries a day later?',
    expectedPage: '/firestore-ttl',
  },
  { question: 'What is the review turnaround target?', expectedPage: '/points-and-kpis/' },
  { question: 'how to register a gitlab runner', expectedPage: '/setting-up-gitlab-runner' },
  { question: 'what machine type and disk do our CI runner VMs use?', expectedPage: '/setting-up-gitlab-runner' },
  {
    question: 'localhost in WSL is not reachable from Windows, which networking mode should I use?',
    expectedPage: '/use-wsl-basic',
  },
  { question: 'how much memory can WSL use and how do I limit it?', expectedPage: '/use-wsl-basic' },
  { question: 'How do I show a toast after the App Bridge v4 upgrade?', expectedPage: '/update-app-bridge-v4' },
  { question: 'do I still need the App Bridge Provider component?', expectedPage: '/update-app-bridge-v4' },
  {
    question: 'my Cloud Tasks worker gets 429 from Shopify, how should the retries work?',
    expectedPage: '/guide-using-cloud-tasks',
  },
  { question: 'how do I stop the same task being enqueued twice?', expectedPage: '/guide-using-cloud-tasks' },
  {
    question: 'BigQuery query fails because it has no filter on the partition column',
    expectedPage: '/bigquery-clustering-and-partition',
  },
  {
    question: 'how can I see how many bytes a query will scan before running it?',
    expectedPage: '/bigquery-clustering-and-partition',
  },
  {
    question: 'How fast do we have to respond to a SEV1?',
    expectedPage: '/support-procedure',
    // Both list the response times per severity ("SEV1 15 minutes").
    alsoAnsweredBy: ['/backend-dev-rdr', '/faqs/'],
  },
  { question: 'What score do I need to pass the final exam?', expectedPage: '/final_exam/' },
  { question: 'what happens if I fail the exam, is there a retake?', expectedPage: '/final_exam/' },
  {
    question: 'how does token exchange replace the OAuth redirect for installs?',
    expectedPage: '/Development%20Resources/shopify-auth-managed-migration',
  },
  {
    question: 'Should I request an online or offline access token?',
    expectedPage: '/Development%20Resources/shopify-auth-managed-migration',
  },
  {
    question: 'Which Typesense API key should my app use and where is it stored?',
    expectedPage: '/installing-typesense-instance',
  },
  { question: 'how do we back up the typesense data?', expectedPage: '/installing-typesense-instance' },
  {
    question: 'How are Chroma collections named and laid out for review embeddings?',
    expectedPage: '/basic-review-summary-with-chroma/',
  },
  {
    question: "how do we keep one shop's reviews from leaking into another shop's summary?",
    expectedPage: '/basic-review-summary-with-chroma/',
  },
  { question: 'my tunnel URL returns 502 bad gateway', expectedPage: '/cloudflare-tunnel' },
  { question: 'how do I write the cloudflared config.yml for my named tunnel?', expectedPage: '/cloudflare-tunnel' },
  { question: 'How should the Koa error middleware map errors to HTTP responses?', expectedPage: '/error_handling/' },
  { question: 'Which errors should we retry with backoff when calling Google APIs?', expectedPage: '/error_handling/' },
  { question: 'How do I build a list page with Polaris IndexTable?', expectedPage: '/reactjs-shopify-polaris/' },
  { question: 'what should an empty state look like in our admin pages?', expectedPage: '/reactjs-shopify-polaris/' },
  { question: 'koa-body hangs on Cloud Functions, what option do I need?', expectedPage: '/koajs/' },
  { question: 'how do I verify the Shopify session token in a Koa route?', expectedPage: '/koajs/' },
  { question: 'can we deploy to production on a Friday?', expectedPage: '/go-live-procedure' },
  { question: 'how do I roll back a bad production release?', expectedPage: '/go-live-procedure' },
  { question: 'how do hotfixes work if we only have one main branch?', expectedPage: '/trunkbase-develoment-flow' },
  { question: 'how do I rename a Firestore field without downtime?', expectedPage: '/trunkbase-develoment-flow' },
  { question: 'what should I name my git branch and commit messages?', expectedPage: '/dev-flow/' },
  { question: 'where do the source maps of the admin build go?', expectedPage: '/acme-react-app-artifacts/' },
  {
    question: 'merchant still sees the old version after deploy, stale chunks',
    expectedPage: '/acme-react-app-artifacts/',
  },
  {
    question: 'How much money do I get each year for courses and books?',
    expectedPage: '/self-learning/how-to-self-learning',
  },
  {
    question: 'how long should a trainee stay stuck before asking for help?',
    expectedPage: '/training-member-guideline/',
  },
  { question: 'should a storefront widget use React or Preact?', expectedPage: '/reactjs-alternative/' },
  {
    question: 'writes to Firestore are slow because of sequential document IDs',
    expectedPage: '/firebase-gcp-pitfalls/',
  },
  { question: 'how do I ask a merchant for a HAR file?', expectedPage: '/support-procedure' },
  { question: 'acme doctor complains about my setup, what does it check?', expectedPage: '/getting-started-acme-cli/' },
  {
    question: 'is it worth setting minInstances on our functions given the cost?',
    expectedPage: '/cost-optimization-guideline/',
  },
  {
    question: 'how do I backfill existing Firestore documents into the BigQuery changelog?',
    expectedPage: '/sync-firestore-to-big-query/',
  },
  {
    question: 'replace a v2 mixin with composition when moving to Acme Core v3',
    expectedPage: '/updating-acme-core-v3',
  },
  { question: 'why did we stop using mixins in our repositories?', expectedPage: '/case-study-of-mixin/' },
  { question: 'how do I add an app block to a merchant theme?', expectedPage: '/shopify-theme-liquid/' },
  { question: 'What points do I earn for writing a handbook page?', expectedPage: '/points-and-kpis/' },
  { question: 'what does QA check on staging before sign-off?', expectedPage: '/qa-qc-checkpoints/' },
  { question: 'how do I attach the WebStorm debugger to the functions emulator?', expectedPage: '/webstorm-tips/' },
  { question: 'how do I set up a new staging GCP project and Shopify app?', expectedPage: '/setting-up-a-staging' },
  { question: 'why does my promise rejection crash the node process?', expectedPage: '/nodejs_basic/' },
  { question: 'which accounts do I need on my first day?', expectedPage: '/development-onboarding/' },
  {
    question: 'what is Shopify leaky bucket rate limiting on the GraphQL API?',
    expectedPage: '/getting-started-shopify/',
  },
  {
    question: 'how many story points fit in a sprint and how is capacity planned?',
    expectedPage: '/development-team-workflow/',
  },
  { question: 'which AI tools are we allowed to use for code review?', expectedPage: '/ai-code-review-guideline/' },
];
