import { gunzipSync } from 'node:zlib';
import { builtMarkdownOrigin } from '@acme/contract';
import { describe, expect, it } from 'vitest';
import { withPublicOrigin } from './markdown-origin.js';

const page = Buffer.from(
  `# TTL\n\nSee [the standard](${builtMarkdownOrigin}/coding-standard/) and http://localhost:3000/.\n`,
);

describe('the public origin in served Markdown', () => {
  it.each(['firestore-ttl.md', 'Workshops/shopify-market.md', 'llms.txt', 'llms-full.txt'])(
    'puts the server origin in the links of %s, leaving other addresses in the text alone',
    (relative) => {
      const served = withPublicOrigin(relative, page, 'https://docs.acme.dev');
      const expected =
        '# TTL\n\nSee [the standard](https://docs.acme.dev/coding-standard/) and http://localhost:3000/.\n';
      expect(served?.bytes.toString()).toBe(expected);
      expect(gunzipSync(served?.gzip ?? Buffer.alloc(0)).toString()).toBe(expected);
    },
  );

  it.each(['firestore-ttl/index.html', 'assets/js/main.js', 'notes.txt', 'llms.txt.gz'])(
    'leaves %s as built',
    (relative) => {
      expect(withPublicOrigin(relative, page, 'https://docs.acme.dev')).toBeUndefined();
    },
  );
});
