/**
 * The site build `npm start` makes before starting the server, when site/build is missing or older than its sources.
 * Only the default location, inside the Docusaurus project; a SITE_DIR elsewhere must already hold a build, and a
 * production server never builds anything.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStale } from './freshness.mjs';

const siteSources = path.resolve(fileURLToPath(new URL('../../site', import.meta.url)));
export const defaultSiteBuild = path.join(siteSources, 'build');
const sourceEntries = [
  'docs',
  'src',
  'static',
  'plugins',
  'docusaurus.config.ts',
  'sidebars.ts',
  'site.config.ts',
  'tags.yml',
  'package.json',
].map((entry) => path.join(siteSources, entry));

/** True when the default build is missing or any site source changed after it; Docusaurus writes 404.html last. */
export function isSiteBuildStale() {
  return isStale(path.join(defaultSiteBuild, '404.html'), sourceEntries);
}

/** Builds the default site when it is stale; says whether it did. */
export async function ensureSiteBuilt() {
  if (!isSiteBuildStale()) return false;
  console.log(`Building the site into ${defaultSiteBuild} (missing or older than its sources)...`);
  await new Promise((resolve, reject) => {
    const build = spawn('npm', ['run', 'build'], { cwd: siteSources, stdio: 'inherit' });
    build.on('error', reject);
    build.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`The site build failed (exit ${code}).`))));
  });
  return true;
}
