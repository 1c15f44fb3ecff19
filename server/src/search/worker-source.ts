import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running one of our modules, given as the URL of its compiled `.js` beside the caller. From the
 * sources (tests, `npm run dev`) the worker registers tsx first: a worker's execArgv cannot load it.
 */
export function startWorker(script: URL, workerData: unknown, maxOldGenerationSizeMb: number): Worker {
  const compiled = !import.meta.url.endsWith('.ts');
  if (compiled) return new Worker(fileURLToPath(script), { workerData, resourceLimits: { maxOldGenerationSizeMb } });
  const source = new URL(script.href.replace(/\.js$/, '.ts'));
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source.href)}); });`,
    { eval: true, workerData, resourceLimits: { maxOldGenerationSizeMb } },
  );
}
