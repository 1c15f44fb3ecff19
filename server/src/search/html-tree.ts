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

const cells = new Set(['td', 'th']);
const tableBoundary = new Set(['table', 'template', 'html']);
const rowGroupBoundary = new Set([...tableBoundary, ...rowGroups]);

/**
 * What opening an element closes, HTML's way: the open element nearest the innermost whose name is in `closes` (and
 * all inside it), unless an element named in `stopsAt` comes first (it is not in that scope). Without `stopsAt`, only
 * the innermost element is looked at (a heading closes an open heading, an option an open option).
 */
type Closing = { closes: ReadonlySet<string>; stopsAt?: ReadonlySet<string> };

/** The closings of each element name, made once: looked up at every opening tag of every page read. */
const closingsByName = new Map<string, Closing[]>();
function closeOnOpening(names: Iterable<string>, closing: Closing) {
  for (const name of names) closingsByName.set(name, [...(closingsByName.get(name) ?? []), closing]);
}
closeOnOpening(cells, { closes: cells, stopsAt: new Set([...rowGroupBoundary, 'tr']) });
closeOnOpening(['tr'], { closes: new Set(['tr']), stopsAt: rowGroupBoundary });
closeOnOpening(rowGroups, { closes: rowGroups, stopsAt: tableBoundary });
closeOnOpening(['li'], { closes: new Set(['li']), stopsAt: listItemScope });
closeOnOpening(['dd', 'dt'], { closes: new Set(['dd', 'dt']), stopsAt: listItemScope });
closeOnOpening(['option', 'optgroup'], { closes: new Set(['option']) });
closeOnOpening(['optgroup'], { closes: new Set(['optgroup']) });
closeOnOpening(['rt', 'rp'], { closes: new Set(['rt', 'rp']) });
closeOnOpening(closesParagraph, { closes: new Set(['p']), stopsAt: paragraphScope });
closeOnOpening(headings, { closes: headings });

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
    for (const { closes, stopsAt } of closingsByName.get(name) ?? []) {
      for (let at = this.open.length - 1; at >= 0; at -= 1) {
        const openName = this.open[at] as string;
        if (closes.has(openName)) {
          this.closeDownTo(at);
          break;
        }
        if (!stopsAt || stopsAt.has(openName)) break;
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
