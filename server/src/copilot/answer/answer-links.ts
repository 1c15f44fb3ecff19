import { isSiteImage, siteUrlOf } from '@acme/contract';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { SKIP, visit } from 'unist-util-visit';
import { codeSpan, type Edit, untilSettled } from './markdown-edits.js';

/**
 * Where links into our site must lead: a page of the build, and a section of it when they name one. `addressOf` gives
 * the address the site itself links that page or section at (its canonical one: "/faqs/#x" or "/firestore-ttl#x"),
 * whichever spelling the link used, or undefined when the build has no such page or section.
 */
export type SiteLinks = { publicOrigin: string; addressOf: (rootRelativeUrl: string) => string | undefined };

/** A link the reader would follow, as the markdown parser found it. */
type FoundLink = {
  kind: 'inline' | 'autolink' | 'literal' | 'image' | 'definition';
  /** The destination as the parser read it (normalised as the widget's parser reads it too). */
  url: string;
  start: number;
  end: number;
  node: Nodes;
};

/** The verdict on one link into our site: where it leads, or null when the build has no such page or section. */
export type LinkVerdict = { url: string; href: string | null };

const parse = (markdown: string): Root =>
  fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

function kindOf(source: string, start: number): FoundLink['kind'] {
  if (source[start] === '<') return 'autolink';
  return source[start] === '[' ? 'inline' : 'literal';
}

/**
 * Every link, image (inline, or by reference to a definition) and link definition of the answer, in the order they
 * appear.
 */
function findLinks(markdown: string, tree: Root = parse(markdown)): FoundLink[] {
  const definitions = new Map<string, string>();
  visit(tree, 'definition', (node) => {
    definitions.set(node.identifier, node.url);
  });
  const found: FoundLink[] = [];
  visit(tree, (node) => {
    if (node.type !== 'link' && node.type !== 'image' && node.type !== 'definition' && node.type !== 'imageReference')
      return;
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return;
    if (node.type === 'imageReference') {
      const url = definitions.get(node.identifier);
      if (url !== undefined) found.push({ kind: 'image', url, start, end, node });
      return;
    }
    const kind = node.type === 'link' ? kindOf(markdown, start) : node.type;
    found.push({ kind, url: node.url, start, end, node });
  });
  return found;
}

/** Raw HTML of the answer (`<img onerror=…>`, `<a href=…>`): shown as text, never to be rendered by anyone. */
function rawHtml(tree: Root): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = [];
  visit(tree, 'html', (node) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start !== undefined && end !== undefined) found.push({ start, end });
  });
  return found;
}

/** A query the link carried, kept on the page's address (before its #anchor). */
function withQueryOf(siteUrl: string, address: string): string {
  const search = URL.canParse(siteUrl, 'http://site.invalid') ? new URL(siteUrl, 'http://site.invalid').search : '';
  if (!search) return address;
  const hash = address.indexOf('#');
  return hash === -1 ? `${address}${search}` : `${address.slice(0, hash)}${search}${address.slice(hash)}`;
}

function judge(url: string, links: SiteLinks): LinkVerdict | undefined {
  const siteUrl = siteUrlOf(url, links.publicOrigin);
  if (siteUrl === undefined) return undefined;
  const address = links.addressOf(siteUrl);
  return { url, href: address === undefined ? null : withQueryOf(siteUrl, address) };
}

/** The text a removed link leaves behind: its words, or its address as code so the widget does not link it again. */
function withoutLink(link: FoundLink, markdown: string): string {
  if (link.kind === 'definition') return '';
  if (link.kind === 'autolink' || link.kind === 'literal')
    return codeSpan(markdown.slice(link.start, link.end).replace(/^<|>$/g, ''));
  if (link.node.type === 'image' || link.node.type === 'imageReference')
    return link.node.alt ? `[image: ${link.node.alt.replace(/[[\]\\]/g, '\\$&')}]` : '';
  return childrenSource(link, markdown);
}

function childrenSource(link: FoundLink, markdown: string): string {
  const children = 'children' in link.node ? link.node.children : [];
  const first = children[0]?.position?.start.offset;
  const last = children.at(-1)?.position?.end.offset;
  return first === undefined || last === undefined ? '' : markdown.slice(first, last);
}

const titleOf = (node: Nodes) => ('title' in node && node.title ? ` "${node.title.replaceAll('"', '\\"')}"` : '');

/**
 * A kept link pointed at the page's one address, root-relative (the widget is on any page): a relative link, or one
 * written in the spelling the site redirects (/faqs for /faqs/), costs the reader no redirect. A bare or <…> address
 * keeps its words and leads there too.
 */
function rewritten(link: FoundLink, href: string, markdown: string, publicOrigin: string): string | undefined {
  if (link.url === href || link.node.type === 'image') return undefined;
  if (link.kind === 'inline') return `[${childrenSource(link, markdown)}](<${href}>${titleOf(link.node)})`;
  if (link.kind === 'definition' && link.node.type === 'definition') {
    const label = /^\[((?:[^\]\\]|\\.)*)\]:/.exec(markdown.slice(link.start, link.end))?.[1];
    return label === undefined ? undefined : `[${label}]: <${href}>${titleOf(link.node)}`;
  }
  // An absolute address on our origin that already names the page's one address is left as written.
  if (siteUrlOf(link.url, publicOrigin) === href) return undefined;
  const words = markdown.slice(link.start, link.end).replace(/^<|>$/g, '');
  return `[${words.replace(/[\\`*_[\]<>]/g, '\\$&')}](<${href}>)`;
}

/**
 * The answer with its root-relative links written on `origin` (`/faqs/#x` -> `https://docs.acme.dev/faqs/#x`), for a
 * reader outside the site (a coding agent), who cannot resolve them. Code is never touched.
 */
export function withAbsoluteSiteLinks(markdown: string, origin: string): string {
  return untilSettled(markdown, (text) =>
    findLinks(text).flatMap((link) => {
      if (!link.url.startsWith('/') || link.url.startsWith('//')) return [];
      const href = `${origin}${link.url}`;
      const replacement =
        link.node.type === 'image' || link.node.type === 'imageReference'
          ? `![${link.node.alt ?? ''}](<${href}>${titleOf(link.node)})`
          : rewritten(link, href, text, origin);
      return replacement === undefined ? [] : [{ start: link.start, end: link.end, replacement }];
    }),
  );
}

/** The section numbers an answer cites as `[2]` in its prose (never in code, never a link's text). */
export function citedNumbers(markdown: string): number[] {
  const cited: number[] = [];
  visit(parse(markdown), (node) => {
    if (node.type === 'link' || node.type === 'linkReference') return SKIP;
    if (node.type === 'text') for (const match of node.value.matchAll(/\[(\d{1,2})\]/g)) cited.push(Number(match[1]));
    return undefined;
  });
  return cited;
}

export type CheckedAnswer = {
  text: string;
  /** Root-relative links into our site that were kept, each once, in order. */
  kept: string[];
  /** Links into our site that lead nowhere, removed from the text (links elsewhere removed as unsafe are not listed). */
  removed: string[];
};

/** Schemes a link elsewhere may have: the web and e-mail. */
const safeSchemes = /^(https?:|mailto:|\/\/)/i;

/**
 * A link elsewhere that no reader should be handed, whatever renders the answer (the widget drops these itself, but
 * askAi, MCP clients and scripts get the text as it is): a scheme that runs or smuggles content (`javascript:`,
 * `data:`, `vbscript:`, `file:`), or an image from another site (`isSiteImage`, the rule the widget applies too).
 */
function unsafeElsewhere(link: FoundLink, publicOrigin: string): boolean {
  if (link.node.type === 'image' || link.node.type === 'imageReference') return !isSiteImage(link.url, publicOrigin);
  return !safeSchemes.test(link.url);
}

/**
 * Checks every link of a finished answer on its syntax tree: a link into our site (root-relative, relative, or on
 * our origin; inline, reference definition, autolink or bare URL) must lead to a real page and section, or it is
 * replaced by its text. Code is never touched. Links elsewhere pass when they are web or e-mail links; other schemes
 * and images from elsewhere are replaced by their text (`unsafeElsewhere`), and raw HTML is escaped into text. Nested
 * links are settled from the outside in, parsing the answer again after each pass, so whatever a replaced link held is
 * judged too.
 */
export function checkAnswerLinks(markdown: string, links: SiteLinks): CheckedAnswer {
  const kept = new Set<string>();
  const removed = new Set<string>();
  const editsOf = (text: string): Edit[] => {
    const tree = parse(text);
    const linkEdits = findLinks(text, tree).flatMap((link): Edit[] => {
      const verdict = judge(link.url, links);
      if (!verdict && !unsafeElsewhere(link, links.publicOrigin)) return [];
      if (verdict?.href) kept.add(verdict.href);
      else if (verdict) removed.add(siteUrlOf(link.url, links.publicOrigin) ?? link.url);
      const replacement = verdict?.href
        ? rewritten(link, verdict.href, text, links.publicOrigin)
        : withoutLink(link, text);
      if (replacement === undefined) return [];
      // A removed definition takes its line with it.
      const end = link.kind === 'definition' && text[link.end] === '\n' ? link.end + 1 : link.end;
      return [{ start: link.start, end, replacement }];
    });
    const htmlEdits = rawHtml(tree).map(({ start, end }) => ({
      start,
      end,
      replacement: text.slice(start, end).replaceAll('<', '&lt;'),
    }));
    return [...linkEdits, ...htmlEdits];
  };
  const text = untilSettled(markdown, editsOf);
  return { text, kept: [...kept], removed: [...removed] };
}

const fenceLine = /^ {0,3}(`{3,}|~{3,})/;

/** The most of the answer the watcher parses at a time while it streams. */
const watchedWindowChars = 4096;
/**
 * Whether text added since the last look (from `lookedAt`) may have completed a link: its `)` or `>`, a reference's
 * `]`, a line's end (a definition), or a space after a bare address. Other text completes none.
 */
function closesSomething(textSoFar: string, lookedAt: number): boolean {
  const added = textSoFar.slice(lookedAt);
  if (/[)>\]\n]/.test(added)) return true;
  // A bare address is ended by the first space after it; it began at most a few hundred characters back.
  const tailStart = Math.max(0, lookedAt - 256);
  for (const ended of textSoFar.slice(tailStart).matchAll(/(?:https?:\/\/|www\.)\S*\s/gi)) {
    if (tailStart + ended.index + ended[0].length > lookedAt) return true;
  }
  return false;
}

/**
 * Judges the links of an answer while it streams: given the text so far, the verdicts on links into our site that
 * are complete and not judged before (`final`: the answer has ended, so every link is complete). The widget gets each
 * verdict before the text that closes the link, so an invented link is never shown as one. It looks again only when
 * a piece may have completed a link (`closesSomething`), and then parses the line being written, at most a window of
 * it (code holds no links); when the answer ends, the whole last block. A link whose words span lines is judged then.
 */
export function createLinkWatcher(
  links: SiteLinks,
  /** Told how many characters each look parsed: for a test to see the cost stays in proportion to the answer. */
  options: { parsed?: (characters: number) => void } = {},
) {
  const judged = new Set<string>();
  let blockStart = 0;
  let scanned = 0;
  let inFence = false;
  /** How much of the answer had come when its links were last looked for. */
  let lookedAt = 0;
  return (textSoFar: string, { final = false }: { final?: boolean } = {}): LinkVerdict[] => {
    const verdicts: LinkVerdict[] = [];
    if (!inFence && (final || closesSomething(textSoFar, lookedAt))) {
      // Parsed from the start of the line the new text began on (links seldom span lines), and of the block when the
      // answer ends; never more than a window, whatever the line: one unbroken paragraph parsed whole at every word
      // grew with the square of its length, and held the event loop for seconds (a review: 40 s).
      const lineStart = textSoFar.lastIndexOf('\n', lookedAt - 1) + 1;
      const from = final ? blockStart : Math.max(blockStart, lineStart, textSoFar.length - watchedWindowChars);
      lookedAt = textSoFar.length;
      const block = textSoFar.slice(from);
      options.parsed?.(block.length);
      for (const link of findLinks(block)) {
        const complete = final || link.end < block.length || ')>'.includes(block[link.end - 1] ?? '');
        if (!complete || judged.has(link.url)) continue;
        judged.add(link.url);
        const verdict = judge(link.url, links);
        if (verdict) verdicts.push(verdict);
      }
    }
    // Whole lines only: a blank line outside code, or a fence, starts the next block.
    for (let lineEnd = textSoFar.indexOf('\n', scanned); lineEnd !== -1; lineEnd = textSoFar.indexOf('\n', scanned)) {
      const line = textSoFar.slice(scanned, lineEnd);
      if (fenceLine.test(line)) inFence = !inFence;
      if (fenceLine.test(line) || (!inFence && line.trim() === '')) blockStart = lineEnd + 1;
      scanned = lineEnd + 1;
    }
    return verdicts;
  };
}
