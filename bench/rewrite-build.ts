/**
 * Run by growth-rebuild.ts as a process of its own, as `npm run build` runs beside a server: every page of a build
 * rewritten with its twins, then its search prepared. Says `written` and `prepared` on stdout as each is done.
 */
import { prepareSiteBuild } from '../server/scripts/build.mjs';
import { rewriteBuildInPlace } from './site-copies';

const siteDirectory = process.argv[2];
if (!siteDirectory) throw new Error('usage: rewrite-build.ts <site build directory>');
await rewriteBuildInPlace(siteDirectory, `edited ${Date.now()}`);
console.log('written');
prepareSiteBuild(siteDirectory, { quiet: true });
console.log('prepared');
