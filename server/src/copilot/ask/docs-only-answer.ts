import type { AskAiSource } from '../contract.js';

/** What the composer needs of a retrieved section (the search index returns more). */
export type RetrievedSection = {
  pageTitle: string;
  heading: string | undefined;
  url: string;
  pageUrl: string;
  text: string;
  score: number;
};

export type DocsOnlyAnswer = { markdown: string; sources: AskAiSource[]; covered: boolean };

const stopWords = new Set(
  'a an and are as at be by can do does for from how i in is it its my of on or our should that the this to we what when where which who why with you your use using about into there their then than have has get set'.split(
    ' ',
  ),
);

/** The words of a question that carry meaning, for judging whether a section really answers it. */
export function questionTerms(question: string): string[] {
  const words = question.toLowerCase().match(/[a-z0-9][a-z0-9-]*/g) ?? [];
  return [...new Set(words.filter((word) => word.length > 2 && !stopWords.has(word)))];
}

/** Share of the question's terms (or their first five letters, a crude stem) that the section mentions. */
export function termCoverage(terms: readonly string[], text: string): number {
  if (terms.length === 0) return 0;
  const haystack = text.toLowerCase();
  const found = terms.filter((term) => haystack.includes(term.length > 5 ? term.slice(0, 5) : term));
  return found.length / terms.length;
}

/** "Page › Heading", or the page title for a page's intro: how a section is named in answers and sources. */
export const sourceTitle = (section: Pick<RetrievedSection, 'pageTitle' | 'heading'>) =>
  section.heading ? `${section.pageTitle} › ${section.heading}` : section.pageTitle;

const quote = (text: string) =>
  text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

/** At most `limit` characters, cut at a word, with an ellipsis when something was left out. */
const clipWords = (text: string, limit: number) =>
  text.length <= limit ? text : `${text.slice(0, limit).replace(/\s+\S*$/, '')}…`;

/** Raw HTML in a quote would be shown as text by the widget anyway; escaping keeps the markdown unambiguous. */
const plain = (text: string) => text.replace(/[<>]/g, (character) => (character === '<' ? '&lt;' : '&gt;'));

/**
 * The best section, then the best of other pages before more of the same page: three sections of one page say less
 * than the page plus the two others that treat the question (the Koa page's error middleware and the error-handling
 * page's status table).
 */
function quotedSections(relevant: readonly RetrievedSection[], count = 3): RetrievedSection[] {
  const pagesSeen = new Set<string>();
  const firstOfPage = relevant.filter((section) => !pagesSeen.has(section.pageUrl) && pagesSeen.add(section.pageUrl));
  const rest = relevant.filter((section) => !firstOfPage.includes(section));
  const chosen = [...firstOfPage.slice(0, count), ...rest].slice(0, count);
  return chosen.sort((first, second) => relevant.indexOf(first) - relevant.indexOf(second));
}

/**
 * The answer without a language model: a lead sentence, the best two or three sections quoted with links, or an
 * honest "not covered" with the nearest pages when nothing matches well enough.
 */
export function composeDocsOnlyAnswer(options: {
  question: string;
  results: readonly RetrievedSection[];
  excerpt: (section: RetrievedSection) => string;
  readFromImages?: string | undefined;
  /** The question came with screenshots but no text could be read from them. */
  imagesUnread?: boolean | undefined;
}): DocsOnlyAnswer {
  const terms = questionTerms(options.question);
  const relevant = options.results.filter(
    (section) => termCoverage(terms, `${sourceTitle(section)} ${section.text}`) >= 0.5,
  );
  const imageNote = options.readFromImages
    ? `From your screenshot I read: "${plain(clipWords(options.readFromImages.replace(/\s+/g, ' ').trim(), 240))}".\n\n`
    : options.imagesUnread
      ? 'I could not read any text in your screenshot, so this answer goes by your typed question alone.\n\n'
      : '';

  if (relevant.length === 0) {
    const nearestPages = [...new Map(options.results.map((section) => [section.pageUrl, section])).values()].slice(
      0,
      3,
    );
    const nearest = nearestPages.length
      ? `\n\nThe nearest pages are:\n${nearestPages.map((section) => `- [${section.pageTitle}](${section.pageUrl})`).join('\n')}`
      : '';
    return {
      markdown: `${imageNote}The handbook does not seem to cover this.${nearest}\n\nIf you find the answer, ask in \`#dev-help\` and consider adding it to the handbook.`,
      sources: nearestPages.map((section) => ({ title: section.pageTitle, url: section.pageUrl })),
      covered: false,
    };
  }

  const chosen = quotedSections(relevant);
  const [best] = chosen as [RetrievedSection, ...RetrievedSection[]];
  const lead = `${imageNote}The handbook covers this in **${sourceTitle(best)}** ([open the section](${best.url})).`;
  const quotes = chosen.map(
    (section) => `${quote(plain(options.excerpt(section)))}\n\n— [${sourceTitle(section)}](${section.url})`,
  );
  return {
    markdown: `${lead}\n\n${quotes.join('\n\n')}`,
    sources: chosen.map((section) => ({ title: sourceTitle(section), url: section.url })),
    covered: true,
  };
}
