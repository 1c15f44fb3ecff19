// Writes brotli (.br) and gzip (.gz) twins of the build's text files, which the server sends to browsers that
// accept them, so nothing is compressed per request.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const buildDirectory = path.resolve(process.argv[2] ?? 'build');
const compressible = /\.(html|js|css|json|svg|xml|txt|map|webmanifest)$/;
const minimumBytes = 1024;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const entries = await readdir(buildDirectory, { recursive: true, withFileTypes: true });
const files = entries
  .filter((entry) => entry.isFile() && compressible.test(entry.name))
  .map((entry) => path.join(entry.parentPath, entry.name));

let written = 0;
await Promise.all(
  files.map(async (file) => {
    const contents = await readFile(file);
    if (contents.length < minimumBytes) return;
    const [br, gz] = await Promise.all([
      brotli(contents, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: contents.length },
      }),
      gzipAsync(contents, { level: 9 }),
    ]);
    if (br.length < contents.length) await writeFile(`${file}.br`, br);
    if (gz.length < contents.length) await writeFile(`${file}.gz`, gz);
    written++;
  }),
);
console.log(`Precompressed ${written} files in ${buildDirectory}.`);
