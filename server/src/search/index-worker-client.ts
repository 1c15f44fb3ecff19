import type { DocSection } from './doc-page.js';
import type { IndexWithMeaning } from './latent-ranking.js';
import { startWorker } from './worker-source.js';

/**
 * Sections posted to the indexer per turn of the event loop: copying a large handbook's at once would hold it up, and
 * so does a thousand (40-70 ms a turn on a 2-core machine, against 17-24 ms for this many).
 */
const sectionsPerPart = 250;

/** Indexes sections in a worker thread: the analysis never holds up a request, and its garbage goes with the thread. */
export function indexSectionsInWorker(sections: readonly DocSection[]): Promise<IndexWithMeaning> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(new URL('./index-worker.js', import.meta.url), { sectionCount: sections.length }, 1024);
    worker.once('message', (index: IndexWithMeaning) => {
      resolve(index);
      // Its work is done. Run from the sources (tests, benches, `npm run dev`), the loader it registers keeps it alive,
      // and with it the process.
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the search indexer stopped (exit code ${code})`)));
    const post = async () => {
      for (let start = 0; start < sections.length; start += sectionsPerPart) {
        worker.postMessage(sections.slice(start, start + sectionsPerPart));
        await new Promise((next) => setImmediate(next));
      }
    };
    void post();
  });
}
