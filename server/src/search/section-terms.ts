import { analyze, words } from './analyze.js';
import { codeOf, type DocSection } from './doc-page.js';
import { type DocumentTerms, packIndex } from './inverted-index.js';
import { type IndexWithMeaning, withLatentSemantics } from './latent-ranking.js';

/**
 * Field boosts, chosen on the tuning questions: code counts for less, since a long listing matches many words of a
 * question by chance.
 */
export const fieldBoosts = { title: 1, headings: 1, keywords: 1, body: 1, code: 0.4 };
const fields = Object.keys(fieldBoosts) as Array<keyof typeof fieldBoosts>;
/** Titles, headings and keywords name the subjects the docs treat. */
const subjectFields = [0, 1, 2];
/** The fields naming a section: its page's title and its headings. */
export const nameFields: readonly number[] = [0, 1];

export const headingPath = (section: DocSection) =>
  [section.parentHeading, section.heading].filter((part): part is string => part !== undefined).join(' ');

/** The terms of each field of a section, in the order of `fieldBoosts`. */
function fieldTexts(section: DocSection): string[][] {
  const code = codeOf(section);
  const texts: Record<keyof typeof fieldBoosts, string[]> = {
    title: analyze(section.pageTitle),
    headings: analyze(headingPath(section)),
    // A page's keywords name its subject as a whole: they go with its intro, and lift its sections through the page.
    keywords: section.level === 1 ? analyze(section.keywords.join(' ')) : [],
    body: analyze(section.text.replace(code, ' ')),
    code: analyze(code),
  };
  return fields.map((field) => texts[field]);
}

function documentTerms(section: DocSection): DocumentTerms {
  const spelling = words(`${section.pageTitle} ${headingPath(section)} ${section.text}`).filter((word) =>
    /^\p{L}{4,}$/u.test(word),
  );
  return { fields: fieldTexts(section), subjectFields, spelling };
}

/** The index of a build's sections, a section's id being its position, with the space of meaning learned from it. */
export const indexSections = (sections: readonly DocSection[]): IndexWithMeaning =>
  withLatentSemantics(
    packIndex(sections.length, fields.length, (id) => {
      const section = sections[id];
      if (!section) throw new Error(`no section ${id}`);
      return documentTerms(section);
    }),
    Object.values(fieldBoosts),
  );
