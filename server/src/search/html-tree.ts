/**
 * A built page's HTML as a DOM tree, fast: htmlparser2's tokenizer with HTML's own rules for the end tags a minifier
 * leaves out. Docusaurus minifies its pages (no `</td>`, `</tr>`, `</th>`, `</thead>`, `</li>`, often no `</p>`), and
 * htmlparser2 closes such an element only while it is the innermost one open: a table's `<tbody>` after a header row
 * stays inside that row's last cell. parse5 builds the tree HTML's way, but took 60 % of parsing a page, four times
 * htmlparser2's time (at a hundred times the handbook, minutes of a first start). No maintained parser does both, so
 * the end tags HTML implies are closed here, over htmlparser2's tokens and domhandler's tree (cheerio's own parts).
 */
import { type Document, DomHandler } from 'domhandler';
import { type Handler, Parser } from 'htmlparser2';

/** Elements a `<p>` may not contain: each closes an open paragraph (HTML's "close a p element"). */
const closesParagraph = new Set(
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li dd dt main menu nav ol p pre section summary table ul listing xmp'.split(
    ' ',
  ),
);
/** Where looking for an open `<p>` stops (HTML's button scope). */
const paragraphScope = new Set('applet caption html table td th marquee object template button'.split(' '));
/** Where looking for an open `<li>`, `<dd>` or `<dt>` stops: special elements other than address, div and p. */
const listItemScope = new Set(
  'applet article aside blockquote body caption center details dialog dir dl fieldset figcaption figure footer form header hgroup html main marquee menu nav object ol section summary table td template th ul'.split(
    ' ',
  ),
);
const headings = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const rowGroups = new Set(['thead', 'tbody', 'tfoot']);

/**
 * What opening `name` closes, HTML's way: the name of the element to close up to (inclusive) when found, and the
 * names that stop the search (it is not in that scope).
 */
function impliedClosings(name: string): Array<{ closes: ReadonlySet<string>; stopsAt: ReadonlySet<string> }> {
  const closings: Array<{ closes: ReadonlySet<string>; stopsAt: ReadonlySet<string> }> = [];
  if (name === 'td' || name === 'th') closings.push({ closes: cells, stopsAt: rowBoundary });
  else if (name === 'tr') closings.push({ closes: rows, stopsAt: rowGroupBoundary });
  else if (rowGroups.has(name)) closings.push({ closes: rowGroups, stopsAt: tableBoundary });
  else if (name === 'li') closings.push({ closes: listItems, stopsAt: listItemScope });
  else if (name === 'dd' || name === 'dt') closings.push({ closes: definitions, stopsAt: listItemScope });
  else if (name === 'option') closings.push({ closes: options, stopsAt: anything });
  else if (name === 'optgroup')
    closings.push({ closes: options, stopsAt: anything }, { closes: groups, stopsAt: anything });
  else if (name === 'rt' || name === 'rp') closings.push({ closes: rubyText, stopsAt: anything });
  if (closesParagraph.has(name)) closings.push({ closes: paragraphs, stopsAt: paragraphScope });
  if (headings.has(name)) closings.push({ closes: headings, stopsAt: anything });
  return closings;
}
const cells = new Set(['td', 'th']);
const rows = new Set(['tr']);
const listItems = new Set(['li']);
const definitions = new Set(['dd', 'dt']);
const paragraphs = new Set(['p']);
const options = new Set(['option']);
const groups = new Set(['optgroup']);
const rubyText = new Set(['rt', 'rp']);
const tableBoundary = new Set(['table', 'template', 'html']);
const rowGroupBoundary = new Set([...tableBoundary, ...rowGroups]);
const rowBoundary = new Set([...rowGroupBoundary, 'tr']);
/** Closes only the innermost element (a heading closes an open heading, an option an open option). */
const anything = { has: () => true } as unknown as ReadonlySet<string>;

/** Elements whose first newline is not content (HTML drops it). */
const leadingNewlineDropped = new Set(['pre', 'textarea', 'listing']);

/**
 * Stands between htmlparser2 and domhandler: opens and closes elements in the tree as HTML would, keeping its own
 * stack of what is open there. htmlparser2's own closes are not followed (its stack may still hold elements closed
 * here, and a stray end tag matching one of them would close live elements above it), except the one it sends at once
 * for an element that never stays open: a void element (`<br>`), or one written self-closing inside SVG.
 */
class ImpliedEndTags implements Partial<Handler> {
  private readonly open: string[] = [];
  private dropNewline = false;
  /** The element opened by the last event, while no other event has come. */
  private justOpened: string | undefined;

  constructor(private readonly tree: DomHandler) {}

  onparserinit(parser: Parser) {
    this.tree.onparserinit(parser);
  }

  onopentag(name: string, attributes: Record<string, string>) {
    for (const { closes, stopsAt } of impliedClosings(name)) {
      for (let at = this.open.length - 1; at >= 0; at -= 1) {
        const openName = this.open[at] as string;
        if (closes.has(openName)) {
          this.closeDownTo(at);
          break;
        }
        if (stopsAt.has(openName)) break;
      }
    }
    this.tree.onopentag(name, attributes);
    this.open.push(name);
    this.dropNewline = leadingNewlineDropped.has(name);
    this.justOpened = name;
  }

  /** A written end tag closes its element, and what is open inside it; one with nothing open to close is ignored. */
  onclosetag(name: string, isImplied: boolean) {
    const opened = this.justOpened;
    this.justOpened = undefined;
    this.dropNewline = false;
    if (isImplied) {
      if (opened === name && this.open.at(-1) === name) this.closeDownTo(this.open.length - 1);
      return;
    }
    const at = this.open.lastIndexOf(name);
    if (at >= 0) this.closeDownTo(at);
    // HTML reads `</p>` with no paragraph open as an empty paragraph.
    else if (name === 'p') {
      this.tree.onopentag('p', {});
      this.tree.onclosetag();
    }
  }

  ontext(text: string) {
    this.justOpened = undefined;
    const kept = this.dropNewline && text.startsWith('\n') ? text.slice(1) : text;
    this.dropNewline = false;
    if (kept) this.tree.ontext(kept);
  }

  oncomment(comment: string) {
    this.justOpened = undefined;
    this.tree.oncomment(comment);
  }

  oncommentend() {
    this.tree.oncommentend();
  }

  onprocessinginstruction(name: string, data: string) {
    this.tree.onprocessinginstruction(name, data);
  }

  onend() {
    this.tree.onend();
  }

  onerror(error: Error) {
    this.tree.onerror(error);
  }

  private closeDownTo(at: number) {
    while (this.open.length > at) {
      this.open.pop();
      this.tree.onclosetag();
    }
  }
}

/** The DOM of an HTML document (domhandler's nodes, as cheerio and domutils read them). */
export function parseHtml(html: string): Document {
  const tree = new DomHandler();
  const parser = new Parser(new ImpliedEndTags(tree), { decodeEntities: true });
  // HTML reads every line ending as a line feed before anything else.
  parser.end(html.includes('\r') ? html.replace(/\r\n?/g, '\n') : html);
  return tree.root;
}
