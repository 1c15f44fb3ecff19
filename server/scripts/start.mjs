/**
 * `npm start`: builds the site when site/build is missing or stale (and SITE_DIR does not point elsewhere), compiles
 * the server when dist/ is missing or older than its sources (a fresh clone, a pull), then runs the compiled server in
 * this same process, so signals reach it directly. Production runs dist/start.js itself and builds nothing.
 */
import { buildServerIfStale, compiledEntry } from './build.mjs';
import { ensureSiteBuilt } from './site-build.mjs';

if (!process.env.SITE_DIR) await ensureSiteBuilt();
await buildServerIfStale();
await import(compiledEntry);
