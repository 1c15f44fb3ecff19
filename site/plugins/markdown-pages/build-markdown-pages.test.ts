import { describe, expect, it } from 'vitest';
import { buildMarkdownPages, markdownPathOf, pageMarkdown } from './build-markdown-pages';

const origin = 'https://docs.acme.dev';
const doc = (id: string, permalink: string, raw: string) => ({
  id,
  title: `Title of ${id}`,
  description: `About ${id}`,
  permalink,
  raw,
});

describe('pages as Markdown', () => {
  it.each([
    ['/coding-standard/', '/coding-standard.md'],
    ['/firestore-ttl', '/firestore-ttl.md'],
    ['/', '/index.md'],
  ])('puts %s at %s', (permalink, path) => {
    expect(markdownPathOf(permalink)).toBe(path);
  });

  it('strips front matter, heads the page with its title and makes links absolute outside code only', () => {
    const raw = [
      '---',
      'title: TTL',
      '---',
      'See [setup](/firestore-setup/#emulator) and [Google](https://google.com).',
      '',
      '[ref]: /coding-standard/',
      '```md',
      '[kept](/in-code)',
      '```',
    ].join('\n');
    expect(pageMarkdown(doc('ttl', '/ttl', raw), origin)).toBe(
      [
        '# Title of ttl',
        '',
        'See [setup](https://docs.acme.dev/firestore-setup/#emulator) and [Google](https://google.com).',
        '',
        '[ref]: https://docs.acme.dev/coding-standard/',
        '```md',
        '[kept](/in-code)',
        '```',
        '',
      ].join('\n'),
    );
  });

  it('lists every page by sidebar category in llms.txt, pages the sidebar leaves out last', () => {
    const files = buildMarkdownPages({
      title: 'Handbook',
      description: 'How we work',
      origin,
      sections: [{ label: 'Start', docs: [{ id: 'a', title: 'A', description: '', permalink: '/a/' }] }],
      docs: [doc('a', '/a/', 'Body A'), doc('b', '/Dev Resources/b', 'Body B')],
    });
    const index = files.find((file) => file.path === '/llms.txt')?.text;
    expect(index).toContain('## Start\n\n- [Title of a](https://docs.acme.dev/a.md): About a');
    expect(index).toContain('## Other pages\n\n- [Title of b](https://docs.acme.dev/Dev%20Resources/b.md): About b');
    expect(files.map((file) => file.path)).toEqual(['/a.md', '/Dev Resources/b.md', '/llms.txt', '/llms-full.txt']);
    expect(files.at(-1)?.text).toContain('# Title of b\n\nBody B');
  });
});
