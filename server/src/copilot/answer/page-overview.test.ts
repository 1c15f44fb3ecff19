import { describe, expect, it } from 'vitest';
import { docSection } from '../../../test-support/doc-sections.js';
import { readDocPageSections } from '../../search/doc-page.js';
import { createSearchEngine } from '../../search/engine.js';
import { startAnswer } from './answer-service.js';
import type { Conversation } from './asked-question.js';
import { composePageOverview, outlineOf, overviewPageOf } from './page-overview.js';

/** A built doc page as Docusaurus writes it: front matter description, intro, h2 and h3 sections. */
const ttlPage = `<html><head><meta name="description" content="How Acme expires old documents with Firestore TTL &amp; what it costs."></head>
<body><article><div class="theme-doc-markdown markdown"><header><h1>Firestore TTL</h1></header>
<p>Firestore deletes documents for us once their expireAt has passed.</p>
<h2 id="how-ttl-works">How TTL works</h2><p>A policy names one field.</p>
<h3 id="the-expiry-field">The expiry field</h3><p>Always expireAt, a Timestamp.</p>
<h2 id="costs-and-limits">Costs and limits</h2><p>Deletes are billed like any other.</p>
</div></article></body></html>`;

const index = createSearchEngine([
  ...readDocPageSections(ttlPage, '/firestore-ttl'),
  docSection('/go-live-procedure', 'Go-Live Procedure', 'Rolling back', 'Roll back first, investigate later.'),
  docSection('/welcome', 'Welcome', 'The office', 'Any idea what to bring tomorrow? The office opens at nine.'),
]);

const asking = (text: string, page?: string): Conversation => ({
  messages: [{ role: 'user', text, attachments: [] }],
  ...(page ? { page } : {}),
});

describe('an overview of a page', () => {
  it.for<[string, string | undefined, string | undefined]>([
    ['What are the key points of the page "Firestore TTL"?', undefined, '/firestore-ttl'],
    ['What are the key points of the page "firestore ttl"?', '/go-live-procedure', '/firestore-ttl'],
    ['Summarize this page', '/firestore-ttl', '/firestore-ttl'],
    ['what is this page about?', '/firestore-ttl', '/firestore-ttl'],
    ['Give me an overview of the current page.', '/firestore-ttl', '/firestore-ttl'],
    ['What does this page say about costs?', '/firestore-ttl', undefined],
    ['How do I set the expiry field on this page?', '/firestore-ttl', undefined],
    ['How do TTL policies work?', '/firestore-ttl', undefined],
    ['Summarize this page', undefined, undefined],
  ])('recognisesOverviewQuestions: "%s" on %s asks about %s', ([question, readerPage, expected]) => {
    expect(overviewPageOf(asking(question), readerPage, index)).toBe(expected);
  });

  it("givesThePurposeAndSectionsWithAnchors: the page's description, then each h2 and h3 linked to its anchor", () => {
    const outline = outlineOf(index, '/firestore-ttl');
    expect(outline).toBeDefined();
    const overview = composePageOverview(outline ?? ({} as never));
    expect(overview.markdown).toBe(
      [
        '**[Firestore TTL](/firestore-ttl)**: How Acme expires old documents with Firestore TTL & what it costs.',
        '',
        'Its main sections:',
        '',
        '- [How TTL works](/firestore-ttl#how-ttl-works)',
        '  - [The expiry field](/firestore-ttl#the-expiry-field)',
        '- [Costs and limits](/firestore-ttl#costs-and-limits)',
      ].join('\n'),
    );
    expect(overview.sources).toEqual([{ title: 'Firestore TTL', url: '/firestore-ttl' }]);
  });

  it('falls back on the first paragraph for a page without a description', () => {
    const html = ttlPage.replace(/<meta name="description"[^>]*>/, '');
    const outline = outlineOf(createSearchEngine(readDocPageSections(html, '/firestore-ttl')), '/firestore-ttl');
    expect(outline?.purpose).toBe('Firestore deletes documents for us once their expireAt has passed.');
  });

  it('answersTheWidgetsPageQuestionWithTheOverview: docs-only, covered, the page as its source', async () => {
    const run = await startAnswer(
      { publicOrigin: 'https://handbook.acme.example', currentIndex: () => index },
      asking('What are the key points of the page "Firestore TTL"?', '/firestore-ttl'),
      { images: [], reader: 'reader' },
      new AbortController().signal,
    );
    let text = '';
    for await (const piece of run.pieces) text += piece;
    const finished = run.finish(text);
    expect(run).toMatchObject({ mode: 'docs-only', nearestPage: { url: '/firestore-ttl' } });
    expect(finished).toMatchObject({ confidence: 'answered', covered: true });
    expect(finished.text).toBe(composePageOverview(outlineOf(index, '/firestore-ttl') ?? ({} as never)).markdown);
    expect(finished.sources).toEqual([{ title: 'Firestore TTL', url: '/firestore-ttl' }]);
  });

  it.for<[string, string | null]>([
    ['How do I set a TTL policy on a DynamoDB table?', '/firestore-ttl'],
    ['what is the weather like tomorrow, any idea?', null],
  ])('names the nearest page of "%s" only when they share a word of its subject', async ([question, nearest]) => {
    const run = await startAnswer(
      { publicOrigin: 'https://handbook.acme.example', currentIndex: () => index },
      asking(question),
      { images: [], reader: 'reader' },
      new AbortController().signal,
    );
    for await (const _piece of run.pieces) {
      // Read to the end.
    }
    expect(run.nearestPage?.url ?? null).toBe(nearest);
  });
});
