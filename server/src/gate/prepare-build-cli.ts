/**
 * `node server/dist/prepare-build.js <site build>`: writes the build's prepared search (prepare-build.ts). Run by
 * `npm run build` for site/build, and by hand or by a docs pipeline for a build made elsewhere (SITE_DIR).
 */
import path from 'node:path';
import { prepareBuild } from './prepare-build.js';

const siteDirectory = process.argv[2];
if (!siteDirectory) {
  console.error('Usage: node server/dist/prepare-build.js <site build directory>');
  process.exit(2);
}
const startedAt = Date.now();
const { sections, bytes } = prepareBuild(path.resolve(siteDirectory));
console.log(
  `Prepared the search of ${sections} doc sections of ${siteDirectory} (${(bytes / 1e6).toFixed(1)} MB) in ${Date.now() - startedAt} ms.`,
);
