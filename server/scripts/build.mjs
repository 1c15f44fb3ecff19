/**
 * Compiles the server to dist/ for `node`: one ES module graph per entry, our own code (and the shared contract,
 * which ships as TypeScript sources) bundled, every npm package left to node_modules. esbuild only strips types;
 * `npm run typecheck` is what checks them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStale } from './freshness.mjs';
import { searchCodeHash } from './search-code.mjs';

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
  /** Runs in a worker thread: watches a site build for rebuilds (src/gate/build-watcher.ts). */
  'build-watcher-worker': 'src/gate/build-watcher-worker.ts',
  /** Writes a site build's prepared search (src/gate/prepare-build.ts): run below for site/build, or by hand. */
  'prepare-build': 'src/gate/prepare-build-cli.ts',
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
    define: { PREPARED_SEARCH_CODE: JSON.stringify(searchCodeHash(serverDirectory)) },
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
  prepareSiteBuild(undefined, { quiet });
}

/**
 * Writes the prepared search of the default site build (site/build) with the compiled code a start runs, so the start
 * reads it instead of parsing and indexing every page. A missing build is no error: the server parses whatever build
 * it finds when it starts.
 */
export function prepareSiteBuild(
  siteDirectory = path.join(serverDirectory, '..', 'site', 'build'),
  { quiet = false } = {},
) {
  if (!existsSync(siteDirectory)) return;
  // A process of its own: the parser's and indexer's memory goes with it.
  execFileSync(process.execPath, [path.join(serverDirectory, 'dist', 'prepare-build.js'), siteDirectory], {
    stdio: quiet ? 'ignore' : 'inherit',
  });
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
