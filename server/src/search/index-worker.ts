/** Run in a worker thread by index-worker-client.ts: indexes the sections it is given and posts the index back. */
import { parentPort, workerData } from 'node:worker_threads';
import type { DocSection } from './doc-page.js';
import { transferablesOf } from './inverted-index.js';
import { latentTransferables } from './latent-ranking.js';
import { indexSections } from './section-terms.js';

const index = indexSections(workerData as DocSection[]);
parentPort?.postMessage(index, [...transferablesOf(index), ...latentTransferables(index)]);
