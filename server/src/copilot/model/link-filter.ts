/** Link text with at most one level of nested brackets, as models write `[see [1]](/x)`. */
const linkText = String.raw`\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]`;
/** A destination: `<...>`, or text with at most one level of balanced parentheses; then an optional title. */
const destination = String.raw`\(\s*(<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)`;
const inlineLink = new RegExp(`^(!?)${linkText}${destination}`);
/** `[label]: url "title"` on a line of its own: the target of reference links `[text][label]`. */
const definition = /^ {0,3}\[([^\]\n]+)\]:[ \t]*(<[^<>\n]*>|\S+)[^\n]*(\n|$)/;
const fenceOpening = /^ {0,3}(`{3,}|~{3,})[^\n]*(\n|$)/;
const autolink = /^<(https?:\/\/[^<>\s]+)>/;
const bareUrl = /^https?:\/\/[^\s<>()[\]`"']+/;
/** Longer than this and it is not a link the model meant: give up waiting and pass the text on. */
const longestHold = 800;

export type LinkFilter = {
  /** Takes the next piece of the answer and returns what can be shown now; an unfinished link is held back. */
  push(text: string): string;
  /** The text still held back, at the end of the answer. */
  flush(): string;
  /** Links into our site that were kept, root-relative, in the order they appeared, each once. */
  readonly keptSiteLinks: readonly string[];
  /** Links into our site that were removed because no such page or section exists. */
  readonly removedSiteLinks: readonly string[];
};

type Step = { emit: string; consumed: number } | 'wait';

/**
 * Checks every link the model writes while the answer streams. A link into our site (root-relative, relative, or on
 * our own origin; inline, reference definition, autolink or bare URL) must lead to a real page and section, or it is
 * replaced by its text: a model that invents `/deploy#rollbacks` must not send the reader to a 404. Relative links
 * are rewritten to the root-relative URL that was checked, since the widget would resolve them against whatever page
 * it is on. Code spans and fenced code pass untouched. Links elsewhere pass too; the widget decides which schemes it
 * renders.
 */
export function createLinkFilter(options: { publicOrigin: string; hasUrl: (url: string) => boolean }): LinkFilter {
  let pending = '';
  let atLineStart = true;
  let fence: string | undefined;
  const kept: string[] = [];
  const removed: string[] = [];

  /** The root-relative form of a link into our site, or undefined for a link elsewhere. */
  const siteUrlOf = (url: string): string | undefined => {
    if (url.startsWith('//')) return undefined;
    if (url.startsWith('/')) return url;
    if (/^[a-z][a-z0-9+.-]*:/i.test(url)) {
      try {
        const parsed = new URL(url);
        return parsed.origin === options.publicOrigin ? `${parsed.pathname}${parsed.hash}` : undefined;
      } catch {
        return undefined;
      }
    }
    // No scheme: relative to wherever the widget is, so only a path from the site root makes sense.
    return `/${url.replace(/^\.\//, '')}`;
  };

  /** Whether a site link leads somewhere real; records it either way. */
  const check = (siteUrl: string): boolean => {
    if (options.hasUrl(siteUrl)) {
      if (!kept.includes(siteUrl)) kept.push(siteUrl);
      return true;
    }
    removed.push(siteUrl);
    return false;
  };

  const inlineLinkStep = (final: boolean): Step => {
    const match = inlineLink.exec(pending);
    if (match) {
      const [whole, bang = '', text = '', rawUrl = ''] = match;
      const url = rawUrl.startsWith('<') ? rawUrl.slice(1, -1) : rawUrl;
      const siteUrl = siteUrlOf(url);
      if (siteUrl === undefined || url === '') return { emit: whole, consumed: whole.length };
      if (!check(siteUrl)) return { emit: bang ? `[image: ${text}]` : text, consumed: whole.length };
      const rewritten = url.startsWith('/') || siteUrl === url ? whole : whole.replace(rawUrl, siteUrl);
      return { emit: rewritten, consumed: whole.length };
    }
    // Could the text still become a link? Hold it while it is short and the paragraph goes on.
    if (!final && pending.length < longestHold && !pending.includes('\n\n') && !closedAsPlainText(pending)) {
      return 'wait';
    }
    const skip = pending.startsWith('!') ? 2 : 1;
    return { emit: pending.slice(0, skip), consumed: skip };
  };

  const codeSpanStep = (final: boolean): Step => {
    const run = /^`+/.exec(pending)?.[0] ?? '`';
    const closing = new RegExp(`(?<!\`)${run}(?!\`)`).exec(pending.slice(run.length));
    if (closing) {
      const end = run.length + closing.index + run.length;
      return { emit: pending.slice(0, end), consumed: end };
    }
    if (!final && pending.length < longestHold && !pending.includes('\n\n')) return 'wait';
    return { emit: run, consumed: run.length };
  };

  const fencedLineStep = (final: boolean): Step => {
    const newline = pending.indexOf('\n');
    if (newline === -1 && !final) {
      // A partial line: safe to show unless it may still be the closing fence.
      const trimmed = pending.trimStart();
      if (atLineStart && (fence?.startsWith(trimmed) || trimmed.startsWith(fence ?? ''))) return 'wait';
      return { emit: pending, consumed: pending.length };
    }
    const line = newline === -1 ? pending : pending.slice(0, newline + 1);
    if (atLineStart && fence && new RegExp(`^ {0,3}${fence}[\`~]*\\s*$`).test(line)) fence = undefined;
    return { emit: line, consumed: line.length };
  };

  /** At the start of a line: a code fence opening, or a reference definition, both judged on the whole line. */
  const lineStartStep = (final: boolean): Step | undefined => {
    const lineComplete = final || pending.includes('\n');
    if (!lineComplete && pending.length < longestHold) {
      const mayBeFence = /^ {0,3}([`~]*$|`{3,}|~{3,})/.test(pending);
      const mayBeDefinition = /^ {0,3}\[[^\]\n]*(\](:.*)?)?$/.test(pending);
      if (mayBeFence || mayBeDefinition) return 'wait';
      return undefined;
    }
    const opening = fenceOpening.exec(pending);
    if (opening) {
      fence = opening[1];
      return { emit: opening[0], consumed: opening[0].length };
    }
    const target = definition.exec(pending);
    if (target) {
      const rawUrl = target[2] ?? '';
      const url = rawUrl.startsWith('<') ? rawUrl.slice(1, -1) : rawUrl;
      const siteUrl = siteUrlOf(url);
      if (siteUrl === undefined) return { emit: target[0], consumed: target[0].length };
      if (!check(siteUrl)) return { emit: '', consumed: target[0].length };
      return { emit: target[0].replace(rawUrl, siteUrl), consumed: target[0].length };
    }
    return undefined;
  };

  /** A bare or <auto> link on our own origin to nowhere becomes code, so no Markdown renderer makes it a link. */
  const urlStep = (match: RegExpExecArray, final: boolean, angled: boolean): Step => {
    const url = match[angled ? 1 : 0] ?? '';
    if (!angled && !final && match[0].length === pending.length) return 'wait';
    const siteUrl = siteUrlOf(url);
    if (siteUrl === undefined || check(siteUrl)) return { emit: match[0], consumed: match[0].length };
    return { emit: `\`${url}\``, consumed: match[0].length };
  };

  const drain = (final: boolean): string => {
    let shown = '';
    const show = (text: string) => {
      shown += text;
      if (text) atLineStart = text.endsWith('\n');
    };
    while (pending.length > 0) {
      let step: Step | undefined;
      if (fence) step = fencedLineStep(final);
      else if (atLineStart) step = lineStartStep(final);
      if (step === undefined) {
        const special = pending.search(/!?\[|`|<https?:|https?:\/\/|\n/);
        if (special === -1) {
          // A lone `!` or the start of a URL at the very end may still become something.
          const hold = final ? 0 : (/(!|<|<?(h|ht|htt|https?|https?:|https?:\/))$/.exec(pending)?.[0].length ?? 0);
          step = { emit: pending.slice(0, pending.length - hold), consumed: pending.length - hold };
          if (step.consumed === 0) step = 'wait';
        } else if (special > 0) {
          step = { emit: pending.slice(0, special), consumed: special };
        } else if (pending.startsWith('\n')) {
          step = { emit: '\n', consumed: 1 };
        } else if (pending.startsWith('`')) {
          step = codeSpanStep(final);
        } else if (pending.startsWith('<')) {
          const match = autolink.exec(pending);
          step = match
            ? urlStep(match, final, true)
            : !final && !pending.includes('>') && pending.length < longestHold && !/\s/.test(pending)
              ? 'wait'
              : { emit: '<', consumed: 1 };
        } else if (pending.startsWith('h')) {
          const match = bareUrl.exec(pending);
          step = match
            ? urlStep(match, final, false)
            : !final && /^https?:\/\/$/.test(pending)
              ? 'wait'
              : { emit: pending.slice(0, 1), consumed: 1 };
        } else {
          step = inlineLinkStep(final);
        }
      }
      if (step === 'wait') break;
      show(step.emit);
      pending = pending.slice(step.consumed);
    }
    return shown;
  };

  return {
    push(text) {
      pending += text;
      return drain(false);
    },
    flush() {
      return drain(true);
    },
    keptSiteLinks: kept,
    removedSiteLinks: removed,
  };
}

/**
 * True once the text at a `[` can no longer become an inline link: its bracket text closed and something other than
 * `(` follows, or its destination closed without matching.
 */
function closedAsPlainText(text: string): boolean {
  let depth = 0;
  for (let index = text.startsWith('!') ? 1 : 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '[') depth += 1;
    else if (character === ']') {
      depth -= 1;
      if (depth === 0) {
        const next = text[index + 1];
        if (next === undefined) return false;
        if (next !== '(') return true;
        // The destination has begun; it fails for good once its parentheses balance without a match.
        let parentheses = 0;
        for (let inner = index + 1; inner < text.length; inner += 1) {
          if (text[inner] === '(') parentheses += 1;
          else if (text[inner] === ')') {
            parentheses -= 1;
            if (parentheses === 0) return true;
          }
        }
        return false;
      }
    }
  }
  return false;
}
