import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's own directory, however the code runs: this file sits one level below it both as source
 * (src/server-directory.ts) and compiled (dist/*.js, where every module shares the bundle's location).
 */
export const serverDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
