import { describe, expect, it } from 'vitest';
import { createLinkFilter } from './link-filter.js';

const known = new Set(['/deployment', '/deployment#rollback', '/Development%20Resources/shopify-cli', '/faqs']);
const filter = () =>
  createLinkFilter({ publicOrigin: 'https://docs.acme.dev', hasUrl: (url) => known.has(url.replace(/\/$/, '')) });

/** Feeds the answer in pieces of the given size, as a stream would, and returns what the reader sees. */
function run(answer: string, pieceSize: number) {
  const links = filter();
  let shown = '';
  for (let index = 0; index < answer.length; index += pieceSize)
    shown += links.push(answer.slice(index, index + pieceSize));
  shown += links.flush();
  return { shown, links };
}

const sizes = [1, 2, 3, 7, 1000];

describe('createLinkFilter', () => {
  it.each(sizes)('keeps real sections and removes invented ones, in pieces of %i characters', (size) => {
    const answer =
      'Roll back with [the runbook](/deployment#rollback "Rollback"). See [CLI](/Development%20Resources/shopify-cli/) and not [this](/deploy#rollbacks) or ![diagram](/img/none.png)!';
    const { shown, links } = run(answer, size);
    expect(shown).toBe(
      'Roll back with [the runbook](/deployment#rollback "Rollback"). See [CLI](/Development%20Resources/shopify-cli/) and not this or [image: diagram]!',
    );
    expect(links.keptSiteLinks).toEqual(['/deployment#rollback', '/Development%20Resources/shopify-cli/']);
    expect(links.removedSiteLinks).toEqual(['/deploy#rollbacks', '/img/none.png']);
  });

  it.each(sizes)('checks every way of writing a link, in pieces of %i characters', (size) => {
    const { shown } = run(
      [
        "[see [1]](/nope) [p](/nope_(foo)) [q](/nope 't') [r]( /nope ) [s](<dep loyment>) [t](</deployment>)",
        'Bare https://docs.acme.dev/nope and https://docs.acme.dev/faqs/ and <https://docs.acme.dev/nope2>.',
        'Reference [x][r] here.',
        '[r]: /nope "gone"',
        '[ok]: /deployment',
        'end',
      ].join('\n'),
      size,
    );
    expect(shown).toBe(
      [
        'see [1] p q r s [t](</deployment>)',
        'Bare `https://docs.acme.dev/nope` and https://docs.acme.dev/faqs/ and `https://docs.acme.dev/nope2`.',
        'Reference [x][r] here.',
        '[ok]: /deployment',
        'end',
      ].join('\n'),
    );
  });

  it.each(sizes)('rewrites relative links to the root-relative URL it checked, in pieces of %i', (size) => {
    const { shown, links } = run('[c](deployment#rollback) [d](./faqs) [e](nope)', size);
    expect(shown).toBe('[c](/deployment#rollback) [d](/faqs) e');
    expect(links.keptSiteLinks).toEqual(['/deployment#rollback', '/faqs']);
  });

  it('leaves other sites and schemes to the widget, and our origin checked', () => {
    const { shown } = run(
      '[a](https://docs.acme.dev/deployment) [b](https://docs.acme.dev/nope) [e](https://shopify.dev/docs) [f](mailto:dev@acme.dev) [g](javascript:alert(1))',
      4,
    );
    expect(shown).toBe(
      '[a](/deployment) b [e](https://shopify.dev/docs) [f](mailto:dev@acme.dev) [g](javascript:alert(1))',
    );
  });

  it.each(sizes)('passes code spans and fenced code untouched, in pieces of %i', (size) => {
    const answer = [
      'Write `[x](/nope)` or ``a ` [y](/nope) `` in Markdown:',
      '```md',
      '[z](/nope) and https://docs.acme.dev/nope',
      '```',
      'After the fence [w](/nope) is checked.',
      '~~~',
      '[v](/nope)',
      '~~~',
    ].join('\n');
    expect(run(answer, size).shown).toBe(answer.replace('[w](/nope)', 'w'));
  });

  it.each(sizes)('passes brackets that are not links straight through, in pieces of %i', (size) => {
    const answer =
      'Arrays like items[0] and [optional] flags, a checkbox - [ ] done, 2 < 3 and a > b, http is fine.\n[unfinished';
    expect(run(answer, size).shown).toBe(answer);
  });

  it('holds back only while a link is unfinished', () => {
    const links = filter();
    expect(links.push('Read [the')).toBe('Read ');
    expect(links.push(' guide](/deploy')).toBe('');
    expect(links.push('ment) now')).toBe('[the guide](/deployment) now');
    expect(links.push(' wow!')).toBe(' wow');
    expect(links.flush()).toBe('!');
  });

  it('gives up waiting on a very long bracket', () => {
    const links = filter();
    const long = `x [${'x'.repeat(900)}`;
    expect(links.push(long)).toBe(long);
  });
});

describe('createLinkFilter on random text', () => {
  it('shows the same answer however the stream is cut, and never loses text that has no site link', () => {
    const alphabet = [
      '[',
      ']',
      '(',
      ')',
      '<',
      '>',
      '!',
      '`',
      '~',
      ':',
      '/',
      ' ',
      '\n',
      'h',
      'ttps://',
      'x',
      '/faqs',
      'nope',
    ];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let round = 0; round < 2000; round++) {
      const answer = Array.from(
        { length: 5 + Math.floor(random() * 40) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
      const whole = run(answer, answer.length).shown;
      const cut = run(answer, 1 + Math.floor(random() * 4)).shown;
      expect(cut, JSON.stringify(answer)).toBe(whole);
      if (!answer.includes('](') && !answer.includes('://') && !answer.includes(']:')) expect(whole).toBe(answer);
    }
  });
});
