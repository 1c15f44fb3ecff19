import fc from 'fast-check';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { visit } from 'unist-util-visit';
import { describe, expect, it } from 'vitest';
import { checkAnswerLinks, withAbsoluteSiteLinks } from './answer-links.js';

const site = {
  publicOrigin: 'https://docs.acme.dev',
  addressOf: (url: string) => (url.startsWith('/faqs') ? '/faqs/' : undefined),
};

/** What a markdown renderer would make live in the text: link and image destinations, and raw HTML. */
function liveParts(markdown: string) {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const definitions = new Map<string, string>();
  visit(tree, 'definition', (node) => {
    definitions.set(node.identifier, node.url);
  });
  const links: string[] = [];
  const images: string[] = [];
  const html: string[] = [];
  visit(tree, (node: Nodes) => {
    if (node.type === 'link') links.push(node.url);
    if (node.type === 'linkReference') links.push(definitions.get(node.identifier) ?? '');
    if (node.type === 'image') images.push(node.url);
    if (node.type === 'imageReference') images.push(definitions.get(node.identifier) ?? '');
    if (node.type === 'html') html.push(node.value);
  });
  return { links, images, html };
}

const safeLink = (url: string) => /^(https?:|mailto:|\/\/|\/(?!\/))/i.test(url) || url === '';
const ownImage = (url: string) => url.startsWith('/') && !url.startsWith('//');

describe('checkAnswerLinks leaves nothing a renderer would run or fetch', () => {
  it.each([
    ['an image inside a link being removed', '[![p](https://evil.example/p.png?s=1)](javascript:x)'],
    ['an image by reference', '![p][d]\n\n[d]: https://evil.example/p.png?s=1'],
    ['an autolink whose code would close early', '<ab:`[a](javascript:alert(1))`>'],
    ['raw HTML', 'Hi <img src="https://evil.example/p.png"> and <a href="javascript:alert(1)">x</a>'],
    ['a link in a link in a link', '[[[x](javascript:a)](javascript:b)](javascript:c) ![i](data:image/png,AA)'],
  ])('%s', (_, answer) => {
    const { links, images, html } = liveParts(checkAnswerLinks(answer, site).text);
    expect(links.filter((url) => !safeLink(url))).toEqual([]);
    expect(images.filter((url) => !ownImage(url))).toEqual([]);
    expect(html).toEqual([]);
  });

  it('holds for answers made of any mix of links, images, autolinks, definitions and HTML', () => {
    const url = fc.constantFrom(
      'javascript:alert(1)',
      'JaVaScRiPt:x',
      'data:text/html,<b>x</b>',
      'https://evil.example/p.png?q=1',
      '//evil.example/x',
      '/faqs/#x',
      '/nope',
      'mailto:dev@acme.dev',
      'ab:`[a](javascript:y)`',
    );
    const piece: fc.Arbitrary<string> = fc.letrec((tie) => ({
      piece: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('text ', '`code` ', '<b>', '</b>', '\n\n', '[', ']', '(', ')', '`'),
        url.map((target) => `<${target}>`),
        url.map((target) => `![alt](${target})`),
        url.map((target) => `\n\n[d]: ${target}\n\n![ref][d] [lref][d]`),
        fc.tuple(tie('piece'), url).map(([inner, target]) => `[${inner}](${target})`),
      ),
    })).piece;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const { links, images, html } = liveParts(checkAnswerLinks(pieces.join(''), site).text);
        expect(links.filter((target) => !safeLink(target))).toEqual([]);
        expect(images.filter((target) => !ownImage(target))).toEqual([]);
        expect(html).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('withAbsoluteSiteLinks with nested links', () => {
  it('rewrites an image inside a link and the link, leaving the text whole', () => {
    expect(withAbsoluteSiteLinks('[![p](/img/a.png)](/faqs/) after', 'https://docs.acme.dev')).toBe(
      '[![p](<https://docs.acme.dev/img/a.png>)](<https://docs.acme.dev/faqs/>) after',
    );
  });
});
