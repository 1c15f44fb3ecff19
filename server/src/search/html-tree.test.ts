import * as cheerio from 'cheerio';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHtml } from './html-tree.js';

/** The body as parse5 (HTML's own tree building, cheerio's default) and as parseHtml build it, serialised. */
const bodies = (html: string) => ({
  parse5: cheerio.load(html)('body').html(),
  ours: cheerio.load(parseHtml(html))('body').html(),
});
const page = (body: string) => `<!doctype html><html lang=en><head><title>T</title></head><body>${body}</body></html>`;

/** A block and how it may end: a minifier leaves out an end tag HTML implies from what follows. */
type Block = { html: (next: Block | undefined) => string; closesParagraph: boolean };

const word = fc.constantFrom('alpha', 'beta &amp; gamma', '42 ms', 'x &lt; y', 'a  b', 'npm run build');
const inline = fc.oneof(
  word,
  word.map((text) => `<code>${text}</code>`),
  word.map((text) => `<strong>${text}</strong>`),
  word.map((text) => `<a href=#x>${text}</a>`),
);
const inlines = fc.array(inline, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(' '));

const paragraph = inlines.map(
  (text): Block => ({
    // `</p>` may be left out before a block that closes it, or at the end of its parent.
    html: (next) => `<p>${text}${next === undefined || next.closesParagraph ? '' : '</p>'}`,
    closesParagraph: true,
  }),
);
const preformatted = fc
  .tuple(fc.boolean(), word)
  .map(([newline, text]): Block => ({ html: () => `<pre>${newline ? '\n' : ''}${text}</pre>`, closesParagraph: true }));
const heading = fc
  .tuple(fc.constantFrom('h2', 'h3'), word)
  .map(([tag, text]): Block => ({ html: () => `<${tag} id=h>${text}</${tag}>`, closesParagraph: true }));
const table = fc
  .tuple(
    fc.array(word, { minLength: 1, maxLength: 3 }),
    fc.array(fc.array(inlines, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
  )
  .map(
    ([header, rows]): Block => ({
      // No `</th>`, `</td>`, `</tr>`, `</thead>` or `</tbody>`, as Docusaurus's minifier writes a table.
      html: () =>
        `<table><thead><tr>${header.map((cell) => `<th>${cell}`).join('')}<tbody>${rows
          .map((row) => `<tr>${row.map((cell) => `<td>${cell}`).join('')}`)
          .join('')}</table>`,
      closesParagraph: true,
    }),
  );

const blocks: fc.Arbitrary<Block[]> = fc.letrec<{ blocks: Block[]; list: Block; division: Block }>((tie) => ({
  blocks: fc.array(fc.oneof(paragraph, preformatted, heading, table, tie('list'), tie('division')), {
    minLength: 1,
    maxLength: 4,
    depthIdentifier: 'blocks',
  }),
  // No `</li>`: each item ends where the next begins, or at the list's end.
  list: fc.tuple(fc.constantFrom('ul', 'ol'), fc.array(tie('blocks'), { minLength: 1, maxLength: 3 })).map(
    ([tag, items]): Block => ({
      html: () => `<${tag}>${items.map((item) => `<li>${render(item)}`).join('')}</${tag}>`,
      closesParagraph: true,
    }),
  ),
  division: tie('blocks').map((inner): Block => ({ html: () => `<div>${render(inner)}</div>`, closesParagraph: true })),
})).blocks;

const render = (list: readonly Block[]) => list.map((block, at) => block.html(list[at + 1])).join('');

describe('parseHtml', () => {
  it('builds the tree parse5 builds for minified pages: omitted end tags of cells, rows, items and paragraphs', () => {
    fc.assert(
      fc.property(blocks, (body) => {
        const { parse5, ours } = bodies(page(render(body)));
        expect(ours).toBe(parse5);
      }),
      { numRuns: 400 },
    );
  });

  it('closes a header row and its cells when the table body starts', () => {
    const $ = cheerio.load(parseHtml(page('<table><thead><tr><th>A<th>B<tbody><tr><td>1<td>2<tr><td>3<td>4</table>')));
    expect($('thead th').length).toBe(2);
    expect($('tbody tr').length).toBe(2);
    expect($('th tbody').length).toBe(0);
    expect($('tbody tr:last-child td').text()).toBe('34');
  });

  it('closes a list item and the paragraph in it at the next item, and keeps nested lists inside their item', () => {
    const html = page('<ul><li><p>one<ul><li>inner<li>inner two</ul><li><p>two</ul><p>after');
    const $ = cheerio.load(parseHtml(html));
    expect($('body > ul > li').length).toBe(2);
    expect($('body > ul > li > ul > li').length).toBe(2);
    expect($('body > p').text()).toBe('after');
    expect(bodies(html).ours).toBe(bodies(html).parse5);
  });

  it('drops the newline that opens a pre, as HTML does, and keeps the rest of its text', () => {
    const $ = cheerio.load(parseHtml(page('<pre>\n\nline</pre>')));
    expect($('pre').text()).toBe('\nline');
  });

  it('ignores an end tag with nothing open to close, and closes what is left open at the end', () => {
    const html = page('<div><p>a</span></li></td>b</div><ul><li>c');
    expect(bodies(html).ours).toBe(bodies(html).parse5);
  });
});
