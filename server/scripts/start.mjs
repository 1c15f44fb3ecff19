/**
 * `npm start`: builds the site when site/build is missing or stale (and SITE_DIR does not point elsewhere), compiles
 * the server when dist/ is missing or older than its sources (a fresh clone, a pull), then runs the compiled server in
 * this same process, so signals reach it directly. Production runs dist/start.js itself and builds nothing.
 */
import { buildServerIfStale, compiledEntry, prepareSiteBuild } from './build.mjs';
import { ensureSiteBuilt } from './site-build.mjs';

const siteBuilt = !process.env.SITE_DIR && (await ensureSiteBuilt());
// Compiling prepares the default build's search; a build made alone is prepared here.
if (!(await buildServerIfStale()) && siteBuilt) prepareSiteBuild();
await import(compiledEntry);
