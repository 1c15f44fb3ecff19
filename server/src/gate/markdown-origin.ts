import { gzipSync } from 'node:zlib';
import { builtMarkdownOrigin } from '@acme/contract';

const markdownFile = /(^|\/)[^/]+\.md$|^llms(-full)?\.txt$/;
const placeholder = Buffer.from(builtMarkdownOrigin);

/**
 * A Markdown page or `llms.txt` of the build with the stand-in origin its links were written with replaced by the
 * server's public origin, and gzipped again (its precompressed twins hold the stand-in); undefined for any other file,
 * which is served as built.
 */
export function withPublicOrigin(relative: string, bytes: Buffer, publicOrigin: string) {
  if (!markdownFile.test(relative) || !bytes.includes(placeholder)) return undefined;
  const rewritten = Buffer.from(bytes.toString('utf8').replaceAll(builtMarkdownOrigin, publicOrigin));
  return { bytes: rewritten, gzip: gzipSync(rewritten) };
}
