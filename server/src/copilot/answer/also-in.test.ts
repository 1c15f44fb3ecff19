import { describe, expect, it } from 'vitest';
import { docSection } from '../../../test-support/doc-sections.js';
import { docsOnlyAnswers } from '../../../test-support/docs-only-answers.js';
import { retrieve } from '../../search/coverage.js';

const longSentence = `Deploy windows close at sixteen hundred with the \`--freeze\` flag, see [the calendar](/calendar) ${'on Thursdays with a freeze that also covers '.repeat(8)}the end of the \`__init__.py\` month.`;
const sections = [
  docSection('/go-live-procedure', 'Go-Live Procedure', 'Deploying to production', [
    { kind: 'text', markdown: 'Production deploys run from a release tag through the deploy-production job.' },
    { kind: 'text', markdown: 'Tag the release, then start deploy-production in the pipeline.' },
  ]),
  docSection('/go-live-procedure', 'Go-Live Procedure', 'Deploy windows', [{ kind: 'text', markdown: longSentence }]),
  docSection('/faqs', 'FAQs', 'Can I deploy production from my laptop?', [
    { kind: 'code', language: 'bash', code: 'npm run deploy -- --only=`staging`' },
    { kind: 'text', markdown: 'No: production deploys only run in CI.' },
  ]),
  docSection('/setting-up-a-staging', 'Staging', 'Deploying to staging', [
    {
      kind: 'code',
      language: 'bash',
      code: 'firebase deploy --project staging\nfirebase deploy --only functions --project staging',
    },
  ]),
  docSection('/welcome', 'Welcome', 'Office', [{ kind: 'text', markdown: 'The office is open from nine to six.' }]),
];
const { engine, answer } = docsOnlyAnswers(sections);
const alsoLines = (markdown: string) => {
  const [, also = ''] = markdown.split('\n\nAlso in the handbook:\n\n');
  return also.split('\n').filter((line) => line.startsWith('- ['));
};

describe('the key line of the next sections below an answer', () => {
  it('follows the quoted sections with at most two others of the first three, none twice, as pointers not sources', () => {
    const reply = answer('how do I deploy production?');
    expect(reply.confidence).toBe('answered');
    const lines = alsoLines(reply.markdown);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      '- [FAQs › Can I deploy production from my laptop?](/faqs#can-i-deploy-production-from-my-laptop?): No: production deploys only run in CI.',
    );
    expect(reply.sources.map((source) => source.url)).toEqual(['/go-live-procedure#deploying-to-production']);
    // The quoted section is not repeated as a line of its own.
    expect(reply.markdown.split('(/go-live-procedure#deploying-to-production)')).toHaveLength(2);
  });

  it('cuts a long line between words, code and links, so every line stays one line and whole', () => {
    const [, windows = ''] = alsoLines(answer('how do I deploy production?').markdown);
    expect(windows).toMatch(
      /^- \[Go-Live Procedure › Deploy windows\]\(\/go-live-procedure#deploy-windows\): Deploy windows close at sixteen/,
    );
    expect(windows).toMatch(/ a freeze…$/);
    // Cut between whole pieces: the code span and the link before the cut are whole, nothing after it is left open.
    expect(windows).toContain('`--freeze` flag, see [the calendar](/calendar)');
    expect(windows.split('): ')[1]?.length).toBeLessThanOrEqual(301);
  });

  it('shows a one-line command inline, fenced by more backticks than it holds, and leaves a code block out', () => {
    const [faqs] = alsoLines(answer('how do I deploy staging with firebase?').markdown);
    expect(faqs).toMatch(/: `` npm run deploy -- --only=`staging` ``$/);
    const question = 'can I run npm deploy from my laptop to production?';
    expect(
      retrieve(engine, question)
        .hits.slice(0, 3)
        .map((hit) => hit.url),
    ).toContain('/setting-up-a-staging#deploying-to-staging');
    expect(answer(question).markdown).not.toContain('Also in the handbook');
  });
});
