/**
 * Run in a worker thread by index-worker-client.ts: takes the sections it is posted in parts, indexes them and posts
 * the index back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DocSection } from './doc-page.js';
import { transferablesOf } from './inverted-index.js';
import { latentTransferables } from './latent-ranking.js';
import { indexSections } from './section-terms.js';

const { sectionCount } = workerData as { sectionCount: number };
const sections: DocSection[] = [];
const indexAll = () => {
  parentPort?.removeAllListeners('message');
  const index = indexSections(sections);
  parentPort?.postMessage(index, [...transferablesOf(index), ...latentTransferables(index)]);
};
if (sectionCount === 0) indexAll();
else
  parentPort?.on('message', (part: DocSection[]) => {
    sections.push(...part);
    if (sections.length >= sectionCount) indexAll();
  });
