/**
 * The hash of the code that decides what a prepared search holds (the parser, the analyser, the index, their
 * packages): a server reads only a prepared or kept search made by code of the same hash (src/search/prepared-search.ts).
 * A compiled server has it written in at build (build.mjs); run from the sources, it is taken at start.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export function searchCodeHash(serverDirectory) {
  const hash = createHash('sha256');
  const searchDirectory = path.join(serverDirectory, 'src', 'search');
  const files = [
    ...readdirSync(searchDirectory)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => path.join(searchDirectory, file)),
    path.join(serverDirectory, 'src', 'gate', 'built-site.ts'),
    path.join(serverDirectory, 'src', 'gate', 'prepare-build.ts'),
    path.join(serverDirectory, 'package.json'),
  ].sort();
  for (const file of files) hash.update(`${path.relative(serverDirectory, file)}\0`).update(readFileSync(file));
  return hash.digest('hex');
}
