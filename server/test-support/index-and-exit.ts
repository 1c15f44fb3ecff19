/** Builds a search index in a worker thread as the server does, then returns: the process should end by itself. */
import type { DocSection } from '../src/search/doc-page.js';
import { buildSearchEngineInBackground } from '../src/search/engine.js';

const sections: DocSection[] = ['Restart the worker with the deploy job.', 'Rotate the keys every quarter.'].map(
  (text, at) => ({
    id: `runbook-${at}`,
    pageTitle: 'Runbook',
    pageUrl: '/runbook',
    heading: `Part ${at}`,
    parentHeading: undefined,
    level: 2,
    url: `/runbook#part-${at}`,
    text,
    blocks: [],
    breadcrumbs: [],
    keywords: [],
  }),
);
const engine = await buildSearchEngineInBackground(sections);
console.log(`indexed ${engine.search('rotate keys').length}`);
