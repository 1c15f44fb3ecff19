import * as cheerio from 'cheerio';
import { type AnyNode, isTag, isText } from 'domhandler';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHtml } from './html-tree.js';

/** A tree written out in full: every element with its end tag, so only the shape and the text are compared. */
function shape(node: AnyNode): string {
  if (isText(node)) return JSON.stringify(node.data);
  if (!isTag(node)) return '';
  const attributes = Object.entries(node.attribs).map(([name, value]) => ` ${name}=${JSON.stringify(value)}`);
  return `<${node.name}${attributes.join('')}>${node.children.map(shape).join('')}</${node.name}>`;
}

/** The body as parse5 (HTML's own tree building, cheerio's default) and as parseHtml build it. */
const bodies = (html: string) => ({
  parse5: shape(cheerio.load(html)('body').get(0) as AnyNode),
  ours: shape(cheerio.load(parseHtml(html))('body').get(0) as AnyNode),
});
const page = (body: string) => `<!doctype html><html lang=en><head><title>T</title></head><body>${body}</body></html>`;

/**
 * A block and how it may end: a minifier leaves out an end tag HTML implies from what follows. `closesParagraph` says
 * whether the block may follow a paragraph whose `</p>` was left out (bare text may not).
 */
type Block = { html: (next: Block | undefined) => string; closesParagraph: boolean };

const word = fc.constantFrom('alpha', 'beta &amp; gamma', '42 ms', 'x &lt; y', 'a  b', 'npm run build');
const inline = fc.oneof(
  word,
  word.map((text) => `<code>${text}</code>`),
  word.map((text) => `<strong>${text}</strong>`),
  word.map((text) => `<a href=#x>${text}</a>`),
  word.map((text) => `${text}<br>`),
);
const inlines = fc.array(inline, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(' '));
/** Whether an end tag HTML would imply is written anyway: minified pages leave it out, others mix both. */
const written = fc.boolean();
const end = (tag: string, write: boolean) => (write ? `</${tag}>` : '');

const paragraph = fc.tuple(inlines, written).map(
  ([text, write]): Block => ({
    // `</p>` may be left out before a block that closes it, or at the end of its parent.
    html: (next) => `<p>${text}${end('p', write || (next !== undefined && !next.closesParagraph))}`,
    closesParagraph: true,
  }),
);
const bareText = inlines.map((text): Block => ({ html: () => text, closesParagraph: false }));
const preformatted = fc
  .tuple(fc.boolean(), word)
  .map(([newline, text]): Block => ({ html: () => `<pre>${newline ? '\n' : ''}${text}</pre>`, closesParagraph: true }));
/** As Docusaurus writes a code block: lines of spans in `<pre><code>`, every end tag written. */
const codeBlock = fc.array(word, { minLength: 1, maxLength: 3 }).map(
  (lines): Block => ({
    html: () =>
      `<div class="language-js theme-code-block"><pre tabindex=0><code>${lines
        .map((line) => `<span class=token-line>${line}</span><br>`)
        .join('')}</code></pre></div>`,
    closesParagraph: true,
  }),
);
const heading = fc
  .tuple(fc.constantFrom('h2', 'h3'), word)
  .map(([tag, text]): Block => ({ html: () => `<${tag} id=h>${text}</${tag}>`, closesParagraph: true }));
/** A cell holds words, or a paragraph whose `</p>` may go at the cell's end. */
const cell = fc.oneof(
  inlines,
  fc.tuple(inlines, written).map(([text, write]) => `<p>${text}${end('p', write)}`),
);
const row = (tag: 'th' | 'td') =>
  fc
    .tuple(fc.array(fc.tuple(cell, written), { minLength: 1, maxLength: 3 }), written)
    .map(
      ([cells, write]) =>
        `<tr>${cells.map(([text, close]) => `<${tag}>${text}${end(tag, close)}`).join('')}${end('tr', write)}`,
    );
const table = fc.tuple(row('th'), written, fc.array(row('td'), { minLength: 1, maxLength: 3 }), written).map(
  ([header, closeHead, rows, closeBody]): Block => ({
    html: () =>
      `<table><thead>${header}${end('thead', closeHead)}<tbody>${rows.join('')}${end('tbody', closeBody)}</table>`,
    closesParagraph: true,
  }),
);
const definitions = fc
  .array(fc.tuple(fc.constantFrom('dt', 'dd'), inlines, written), { minLength: 1, maxLength: 4 })
  .map(
    (entries): Block => ({
      html: () => `<dl>${entries.map(([tag, text, write]) => `<${tag}>${text}${end(tag, write)}`).join('')}</dl>`,
      closesParagraph: true,
    }),
  );

const blocks: fc.Arbitrary<Block[]> = fc.letrec<{ blocks: Block[]; list: Block; division: Block }>((tie) => ({
  blocks: fc.array(
    fc.oneof(paragraph, bareText, preformatted, codeBlock, heading, table, definitions, tie('list'), tie('division')),
    { minLength: 1, maxLength: 4, depthIdentifier: 'blocks' },
  ),
  // An item holds words (a tight list) or blocks; its `</li>` may go where the next item or the list's end is.
  list: fc
    .tuple(
      fc.constantFrom('ul', 'ol'),
      fc.array(
        fc.tuple(
          fc.oneof(
            inlines,
            tie('blocks').map((inner) => render(inner)),
          ),
          written,
        ),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(
      ([tag, items]): Block => ({
        html: () => `<${tag}>${items.map(([item, write]) => `<li>${item}${end('li', write)}`).join('')}</${tag}>`,
        closesParagraph: true,
      }),
    ),
  division: tie('blocks').map((inner): Block => ({ html: () => `<div>${render(inner)}</div>`, closesParagraph: true })),
})).blocks;

function render(list: readonly Block[]): string {
  return list.map((block, at) => block.html(list[at + 1])).join('');
}

describe('parseHtml', () => {
  it('builds the tree parse5 builds for minified pages: end tags of cells, rows, items, definitions and paragraphs left out or written', () => {
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

  it('ignores a stray end tag of an element HTML already closed, as parse5 does', () => {
    for (const body of [
      '<ul><li><p>a<li>b</p>c</ul>',
      '<table><thead><tr><th>A<tbody><tr><td>1</th>2</table>',
      '<p>a<div>b</p>c</div>',
      '<pre>\r\nline one\r\nline two</pre>',
    ]) {
      const html = page(body);
      expect(bodies(html).ours, body).toBe(bodies(html).parse5);
    }
  });

  it('ignores an end tag with nothing open to close, and closes what is left open at the end', () => {
    const html = page('<div><p>a</span></li></td>b</div><ul><li>c');
    expect(bodies(html).ours).toBe(bodies(html).parse5);
  });
});
