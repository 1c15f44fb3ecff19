import { describe, expect, it } from 'vitest';
import { proseWordCount, readDocSources, withoutCode } from './doc-sources';

const docs = readDocSources();
const placeholderPatterns = [
  /\blorem\b/i,
  /\bipsum\b/i,
  /\bTODO\b/,
  /\bTBD\b/,
  /\bFIXME\b/,
  /coming soon/i,
  /\bplaceholder\b/i,
  /to be written/i,
  /(?<!\$)\{(product|name|token|email|key|assistant-page)\}/,
];

describe('handbook content', () => {
  it('has every page of the spec as a Markdown doc', () => {
    expect(docs.length).toBeGreaterThanOrEqual(52);
  });

  it.each(docs.map((doc) => [doc.file, doc] as const))('%s has at least 500 words of body text', (_file, doc) => {
    expect(proseWordCount(doc.body)).toBeGreaterThanOrEqual(500);
  });

  it.each(docs.map((doc) => [doc.file, doc] as const))('%s has no placeholder text', (_file, doc) => {
    const found = placeholderPatterns.filter((pattern) => pattern.test(doc.frontMatter + doc.body));
    expect(found.map(String)).toEqual([]);
  });

  it.each(docs.map((doc) => [doc.file, doc] as const))(
    '%s has a title, a description and h2 sections',
    (_file, doc) => {
      expect(doc.frontMatter).toMatch(/^title: \S/m);
      expect(doc.frontMatter).toMatch(/^description: \S/m);
      expect(withoutCode(doc.body)).toMatch(/^## \S/m);
      expect(withoutCode(doc.body)).not.toMatch(/^# \S/m);
    },
  );

  it('answers at least 15 questions in the FAQs', () => {
    const faqs = docs.find((doc) => doc.file === 'faqs/index.md');
    const questions = faqs?.body.match(/^###? .+\?\s*$/gm) ?? [];
    expect(questions.length).toBeGreaterThanOrEqual(15);
  });

  it('lists at least 10 pitfalls with fixes in common pitfalls', () => {
    const pitfalls = docs.find((doc) => doc.file === 'common-pitfalls.md');
    const sections = pitfalls?.body.split(/^### /m).slice(1) ?? [];
    const withFix = sections.filter((section) => /\bfix/i.test(section));
    expect(withFix.length).toBeGreaterThanOrEqual(10);
  });
});

describe('proseWordCount', () => {
  it('counts running text and skips code', () => {
    expect(
      proseWordCount('Deploy the app with `acme deploy` today.\n\n```bash\nacme deploy --env staging\n```\n'),
    ).toBe(5);
  });
});
