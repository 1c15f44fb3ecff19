import type { AnswerSource } from '@acme/contract';
import { type DocSection, literalMarkdown } from '../../search/doc-page.js';
import type { SearchEngine } from '../../search/engine.js';
import { type Conversation, lastQuestionOf } from './asked-question.js';

/** A page as an overview shows it: what it is for, and its sections in the order the page has them. */
export type PageOutline = {
  title: string;
  url: string;
  purpose: string;
  /** The intro first, then each h2 and h3. */
  sections: readonly DocSection[];
};

/** "this page", "the page "Firestore TTL"", "the current doc": how a reader names the page in a question. */
const pageNoun = '(?:this|the|current)(?: current)? (?:page|doc|document|article)(?: "[^"]*")?';

/** Questions about the page as a whole, never about something in it ("what does this page say about backups"). */
const overviewQuestions = [
  new RegExp(
    String.raw`\b(?:(?:key|main) (?:points|ideas|takeaways|sections)|summary|overview|purpose|gist|outline|tl;?dr)\s+(?:of|for|on|in)\s+${pageNoun}`,
    'i',
  ),
  new RegExp(String.raw`\b(?:summari[sz]e|sum up|outline|explain|tl;?dr|skim)\s+${pageNoun}\s*[.?!]*$`, 'i'),
  new RegExp(String.raw`\bwhat(?:'s| is| does)\s+${pageNoun}\s+(?:about|for|cover|covering)\s*[.?!]*$`, 'i'),
];

/** Past this many sections, an overview lists the h2 sections alone. */
const maxListedSections = 16;

/** Whether a question asks about the page as a whole. */
export const asksOverview = (question: string) => overviewQuestions.some((pattern) => pattern.test(question));

/** The page title a question quotes ("the key points of the page "Firestore TTL""), if it quotes one. */
export const quotedPageTitle = (question: string) => /"([^"]+)"/.exec(question)?.[1]?.trim();

/**
 * The page a question asks an overview of ("What are the key points of the page "Firestore TTL"?", "summarize this
 * page"): the page whose title it quotes, else the reader's page (already checked to be one); undefined for any
 * other question.
 */
export function overviewPageOf(conversation: Conversation, readerPage: string | undefined, index: SearchEngine) {
  const question = lastQuestionOf(conversation);
  if (!asksOverview(question)) return undefined;
  const quoted = quotedPageTitle(question)?.toLowerCase();
  const named = quoted
    ? index.sections.find((section) => section.level === 1 && section.pageTitle.toLowerCase() === quoted)
    : undefined;
  return named?.pageUrl ?? readerPage;
}

/** The page's purpose and sections, read from the search index; undefined when the index has no such page. */
export function outlineOf(index: SearchEngine, pageUrl: string): PageOutline | undefined {
  const sections = index.sections.filter((section) => section.pageUrl === pageUrl);
  const intro = sections.find((section) => section.level === 1);
  if (!intro) return undefined;
  const firstParagraph = sections.flatMap((section) => section.blocks).find((block) => block.kind === 'text')?.markdown;
  return {
    title: intro.pageTitle,
    url: intro.pageUrl,
    purpose: intro.description ?? firstParagraph ?? '',
    sections,
  };
}

/** A heading as a link's text: what could open a tag, and brackets, escaped (doc-page.ts). */
const plain = (text: string) => literalMarkdown(text).replace(/[[\]]/g, '\\$&');

/** The overview without a model: the page's purpose, then its main sections, each linked to its anchor. */
export function composePageOverview(outline: PageOutline): { markdown: string; sources: AnswerSource[] } {
  const headed = outline.sections.filter((section) => section.level > 1 && section.heading);
  const listed = headed.length > maxListedSections ? headed.filter((section) => section.level === 2) : headed;
  const lines = listed.map(
    (section) => `${section.level === 3 ? '  ' : ''}- [${plain(section.heading ?? '')}](${section.url})`,
  );
  const purpose = outline.purpose ? `: ${plain(outline.purpose)}` : '.';
  const about = `**[${outline.title}](${outline.url})**${purpose}`;
  const markdown = lines.length ? `${about}\n\nIts main sections:\n\n${lines.join('\n')}` : about;
  return { markdown, sources: [{ title: outline.title, url: outline.url }] };
}
