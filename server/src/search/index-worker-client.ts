import type { DocSection } from './doc-page.js';
import type { IndexWithMeaning } from './latent-ranking.js';
import { startWorker } from './worker-source.js';

/** Indexes sections in a worker thread: the analysis never holds up a request, and its garbage goes with the thread. */
export function indexSectionsInWorker(sections: readonly DocSection[]): Promise<IndexWithMeaning> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(new URL('./index-worker.js', import.meta.url), sections, 1024);
    worker.once('message', (index: IndexWithMeaning) => resolve(index));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the search indexer stopped (exit code ${code})`)));
  });
}
