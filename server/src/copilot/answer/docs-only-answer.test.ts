import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { visit } from 'unist-util-visit';
import { describe, expect, it } from 'vitest';
import { docSection } from '../../../test-support/doc-sections.js';
import { docsOnlyAnswers } from '../../../test-support/docs-only-answers.js';
import { aboutAnswer, greetingAnswer, thanksAnswer } from './small-talk.js';

const sections = [
  docSection('/firestore-ttl', 'Firestore TTL', 'Creating a policy', [
    { kind: 'text', markdown: 'TTL policies are set per collection group. Deletion is not instant.' },
    { kind: 'text', markdown: 'Create the policy on the expireAt field:' },
    {
      kind: 'code',
      language: 'bash',
      code: 'gcloud firestore fields ttls update expireAt --collection-group=sessions',
    },
    { kind: 'text', markdown: 'Expired documents are usually deleted within 24 hours.' },
  ]),
  docSection('/firestore-ttl', 'Firestore TTL', 'Costs', [
    { kind: 'text', markdown: 'TTL deletes are billed like ordinary document deletes.' },
  ]),
  docSection('/go-live-procedure', 'Go-Live Procedure', 'Rolling back', [
    { kind: 'text', markdown: 'When a release breaks production, roll back first and investigate later.' },
    {
      kind: 'list',
      ordered: true,
      items: [
        'Open the pipeline of the previous tag.',
        'Re-run its deploy-production job.',
        'Announce it in #releases.',
      ],
    },
  ]),
  docSection('/support-procedure', 'Support Procedure', 'Severity levels', [
    { kind: 'text', markdown: 'A SEV1 means the app is down for every merchant.' },
    { kind: 'text', markdown: 'The on-call developer answers a SEV1 within 15 minutes.' },
  ]),
  docSection('/welcome', 'Welcome', 'Office', [{ kind: 'text', markdown: 'The office is open from nine to six.' }]),
  docSection('/writing-docs', 'Writing docs', 'Code samples in markdown', [
    { kind: 'text', markdown: 'A markdown code sample inside a page looks like this:' },
    { kind: 'code', language: 'md', code: '```ts\nconst answer = 42;\n```' },
  ]),
  docSection('/glossary', 'Glossary', 'Release terms', [
    { kind: 'text', markdown: 'The release glossary terms are:' },
    {
      kind: 'list',
      ordered: false,
      items: Array.from(
        { length: 40 },
        (_, index) => `Release term number ${index} means a long explanation of that release term.`,
      ),
    },
  ]),
  docSection('/launch', 'Launch Procedure', 'Fill in the launch checklist', [
    {
      kind: 'text',
      markdown:
        'Open an issue from the launch template before the window. The launch owner ticks every line of it, and the lead reviews the whole issue and signs it off in a comment before anything ships to merchants.',
    },
    {
      kind: 'list',
      ordered: false,
      items: Array.from(
        { length: 11 },
        (_, index) => `Launch check ${index + 1}: a condition written out in full, which the owner confirms.`,
      ),
    },
  ]),
];
const { answer } = docsOnlyAnswers(sections);

describe('composeDocsOnlyAnswer', () => {
  it('quotes what answers the question, linked to its exact section, and names that section as the source', () => {
    const reply = answer('how do I create a TTL policy on expireAt?');
    expect(reply.covered).toBe(true);
    expect(reply.markdown).toMatch(
      /^\*\*\[Firestore TTL › Creating a policy\]\(\/firestore-ttl#creating-a-policy\)\*\*/,
    );
    expect(reply.markdown).toContain('```bash\ngcloud firestore fields ttls update expireAt');
    expect(reply.sources[0]).toEqual({
      title: 'Firestore TTL › Creating a policy',
      url: '/firestore-ttl#creating-a-policy',
    });
    expect(reply.closest).toEqual([]);
    expect(reply.markdown).not.toContain('Go-Live');
  });

  it.each([
    ['hi', greetingAnswer],
    ['good morning', greetingAnswer],
    ['thanks!', thanksAnswer],
    ['great, thanks', thanksAnswer],
    ['Thank you so much!', thanksAnswer],
    ['ok', thanksAnswer],
    ['who are you?', aboutAnswer],
    ['what is this?', aboutAnswer],
    ['What can you do?', aboutAnswer],
  ])('answers small talk (%j) in kind, quoting no section and giving no verdict', (message, expected) => {
    const reply = answer(message);
    expect(reply).toEqual({
      markdown: expected,
      sources: [],
      confidence: 'none',
      covered: false,
      closest: [],
      smallTalk: true,
    });
  });

  it('still searches a greeting or thanks with a question in it, and a screenshot sent without words', () => {
    expect(answer('hi! how do I create a TTL policy?').sources[0]?.url).toBe('/firestore-ttl#creating-a-policy');
    expect(answer('thanks, but how do I create a TTL policy?').sources[0]?.url).toBe(
      '/firestore-ttl#creating-a-policy',
    );
    expect(answer('', { imagesUnread: true }).smallTalk).toBeUndefined();
  });

  it('puts the sentence holding the key fact first', () => {
    const reply = answer('how fast must on-call answer a SEV1 incident, in minutes?');
    const body = reply.markdown.split('\n\n').slice(1).join('\n\n');
    expect(body.startsWith('The on-call developer answers a SEV1 within 15 minutes.')).toBe(true);
  });

  it('keeps a numbered procedure whole', () => {
    const reply = answer('prod is broken after the release, how do I roll back?');
    expect(reply.markdown).toContain(
      '1. Open the pipeline of the previous tag.\n2. Re-run its deploy-production job.\n3. Announce it in #releases.',
    );
  });

  it('says when the handbook only comes close: the closest section quoted and linked, never as the answer', () => {
    const reply = answer('How do I roll back a Kubernetes release with Helm?');
    expect(reply).toMatchObject({ confidence: 'closest', covered: false, closest: [] });
    expect(reply.sources[0]).toEqual({
      title: 'Go-Live Procedure › Rolling back',
      url: '/go-live-procedure#rolling-back',
    });
    expect(reply.markdown).toMatch(
      /^The handbook may not answer this exactly; the closest it comes is \[Go-Live Procedure › Rolling back\]\(\/go-live-procedure#rolling-back\):\n\n/,
    );
    expect(reply.markdown).toContain('Re-run its deploy-production job.');
    expect(reply.markdown).not.toContain('**[');
    expect(reply.markdown).toMatch(/#dev-help channel\.$/);
  });

  it('declines honestly, with no sources and the closest pages apart', () => {
    const reply = answer('Which Grafana dashboard shows the Kubernetes pods of the Terraform stack in the office?');
    expect(reply).toMatchObject({ confidence: 'none', covered: false, sources: [] });
    expect(reply.markdown).toMatch(/^The handbook does not seem to cover this\.\n\nThese pages come closest/);
    expect(reply.markdown).toMatch(/\n\nTo ask a person, post your question in the #dev-help channel\. [^\n]+$/);
    expect(reply.closest.length).toBeGreaterThan(0);
    for (const page of reply.closest) expect(reply.markdown).toContain(`- [${page.title}](${page.url})`);
  });

  it('declines with no closest pages when nothing matches at all', () => {
    const reply = answer('qwxzvbnmplk');
    expect(reply).toMatchObject({ covered: false, sources: [], closest: [] });
    expect(reply.markdown).not.toContain('closest');
    expect(reply.markdown).toContain('#dev-help channel');
  });

  it('says what it read from a screenshot, or that it could read nothing', () => {
    expect(answer('what is this error?', { readFromImages: 'TTL policy expireAt' }).markdown).toMatch(
      /^From your screenshot I read: "`TTL policy expireAt`"\./,
    );
    expect(answer('TTL policy on expireAt', { imagesUnread: true }).markdown).toMatch(/^I could not read any text/);
  });

  it('shows the text read from a screenshot as code, so that no address in it becomes a link', () => {
    const read = 'TTL policy expireAt, see https://example.com/ttl?a=<b> or www.example.org/x and ops@example.net `x`';
    const line = answer('what is this error?', { readFromImages: read }).markdown.split('\n')[0] ?? '';
    const tree = fromMarkdown(line, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
    const shown: string[] = [];
    visit(tree, (node: Nodes) => {
      expect(node.type).not.toBe('link');
      if (node.type === 'inlineCode') shown.push(node.value);
    });
    expect(shown).toEqual([read]);
  });

  it('fences quoted code so that backticks inside it cannot close the block', () => {
    const reply = answer('how do I put a markdown code sample inside a page?');
    expect(reply.markdown).toContain('````md\n```ts\nconst answer = 42;\n```\n````');
  });

  it('quotes a long list after a lead-in only as far as the budget allows', () => {
    const reply = answer('what are the release glossary terms?');
    const items = reply.markdown.split('\n').filter((line) => line.startsWith('- Release term'));
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items.length).toBeLessThan(40);
  });

  it('quotes a whole list when the reader asks for all of it, step by step', () => {
    const reply = answer('Give me the whole launch checklist step by step');
    const items = reply.markdown.split('\n').filter((line) => line.startsWith('- Launch check'));
    expect(items).toHaveLength(11);
  });
});
