/**
 * Compiles the server to dist/ for `node`: one ES module graph per entry, our own code (and the shared contract,
 * which ships as TypeScript sources) bundled, every npm package left to node_modules. esbuild only strips types;
 * `npm run typecheck` is what checks them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { isStale } from './freshness.mjs';

const serverDirectory = fileURLToPath(new URL('..', import.meta.url));
const bundled = new Set(['@acme/contract']);
export const compiledEntry = path.join(serverDirectory, 'dist', 'start.js');
const sources = [
  path.join(serverDirectory, 'src'),
  path.join(serverDirectory, 'package.json'),
  path.join(serverDirectory, '..', 'packages', 'contract', 'src'),
];

export const entryPoints = {
  /** What `npm start` and the container run. */
  start: 'src/start.ts',
  /** The same app as a library, for the test suite and the bench: they run the compiled server. */
  index: 'src/index.ts',
  /** Runs in a short-lived child process: a new embedded database's initdb, whose memory then goes with it. */
  'initialize-embedded-database': 'src/store/initialize-embedded-database.ts',
  /** The maintainers' report (`npm run copilot:report`), runnable where only the production image is. */
  'copilot-report': 'src/copilot/report/cli.ts',
  /** Runs in a worker thread: reads a site build (files, hashes, doc sections) off the request path. */
  'built-site-worker': 'src/gate/built-site-worker.ts',
  /** Runs in a worker thread: indexes sections for search when the build reader could not (src/search/engine.ts). */
  'index-worker': 'src/search/index-worker.ts',
};

/** Builds dist/ from src/; resolves once written. */
export async function buildServer({ quiet = false } = {}) {
  // Loaded here, not at the top: `npm start` imports this file on every start and rarely compiles.
  const { build } = await import('esbuild');
  rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
  const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  await build({
    absWorkingDir: serverDirectory,
    entryPoints,
    outdir: 'dist',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: 'linked',
    chunkNames: '[name]-[hash]',
    logLevel: quiet ? 'error' : 'warning',
    plugins: [
      {
        name: 'packages-from-node-modules',
        setup(esbuild) {
          esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
            const name = args.path.startsWith('@')
              ? args.path.split('/').slice(0, 2).join('/')
              : args.path.split('/')[0];
            if (bundled.has(name) || args.path.startsWith('node:')) return undefined;
            if (!(name in packageJson.dependencies) && !(name in (packageJson.devDependencies ?? {}))) {
              return { errors: [{ text: `${args.path} is not a dependency of @acme/server` }] };
            }
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  prepareEmbeddedDatabaseTemplate();
  await prepareDocSections({ quiet });
}

/**
 * Parses the doc sections of the default site build (site/build) into dist/doc-sections.json, with the compiled
 * reader a start uses, so the start reads them instead of parsing every page (src/gate/doc-sections-cache.ts). A
 * missing build is no error: the server parses whatever build it finds when it starts.
 */
async function prepareDocSections({ quiet }) {
  const siteDirectory = path.join(serverDirectory, '..', 'site', 'build');
  if (!existsSync(siteDirectory)) return;
  const startedAt = Date.now();
  const reply = await new Promise((resolve, reject) => {
    const worker = new Worker(path.join(serverDirectory, 'dist', 'built-site-worker.js'), {
      // Nothing is held in memory: only the sections are wanted.
      workerData: { siteDirectory, limits: { maxFileBytes: 0, maxTotalBytes: 0 } },
    });
    // A read build's sections follow its first message in parts, each sent when asked for (src/gate/site-messages.ts).
    let read;
    const sections = [];
    worker.on('message', (message) => {
      if (message.kind === 'read') read = message;
      else if (message.kind === 'sections') sections.push(...message.sections);
      else if (message.kind === 'changed' || message.kind === 'failed') return resolve(message);
      else return;
      if (sections.length < read.sectionCount) worker.postMessage('more-sections');
      else {
        resolve({ kind: 'read', site: { ...read.site, sections } });
        // Only the sections are wanted, not the search index the worker builds next.
        void worker.terminate();
      }
    });
    worker.once('error', reject);
  });
  if (reply.kind !== 'read') {
    console.warn(`The doc sections of ${siteDirectory} were not prepared (${reply.reason ?? 'it changed meanwhile'}).`);
    return;
  }
  const { sectionsKey: key, sections } = reply.site;
  writeFileSync(path.join(serverDirectory, 'dist', 'doc-sections.json'), JSON.stringify({ key, sections }));
  if (!quiet) console.log(`Prepared ${sections.length} doc sections of site/build in ${Date.now() - startedAt} ms.`);
}

/**
 * Makes the empty embedded database that a new DATA_DIR is copied from (.cache/, once per PGlite release), so a first
 * start skips initdb (src/store/embedded-database.ts).
 */
function prepareEmbeddedDatabaseTemplate() {
  execFileSync(
    process.execPath,
    [path.join(serverDirectory, 'dist', 'initialize-embedded-database.js'), '--template'],
    {
      stdio: 'inherit',
    },
  );
}

/** Compiles only when dist/ is missing or older than its sources; a current dist is left alone. Says whether it did. */
export async function buildServerIfStale({ quiet = false } = {}) {
  if (!isStale(compiledEntry, sources)) return false;
  if (!quiet) console.log('Compiling the server (missing or older than its sources)...');
  await buildServer({ quiet });
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const startedAt = Date.now();
  await buildServer();
  console.log(`Compiled the server into ${serverDirectory}dist in ${Date.now() - startedAt} ms.`);
}
