import { describe, expect, it } from 'vitest';
import { formatReportJson, formatReportText, type Report } from './format.js';
import { groupReportItems } from './group.js';

const cliSource = {
  title: 'Getting Started with acme-cli › Troubleshooting',
  url: '/getting-started-acme-cli/#troubleshooting',
};
const report: Report = {
  generatedAt: new Date('2026-11-22T12:00:00Z'),
  since: new Date('2026-11-15T12:00:00Z'),
  limit: 200,
  groups: groupReportItems([
    {
      kind: 'rated-down',
      at: new Date('2026-11-21T09:30:00Z'),
      question: 'Why does npm\nsay E401?',
      comment: 'It did not say tokens expire',
      covered: true,
      confidence: 'answered',
      mode: 'docs-only',
      nearestPage: { url: '/getting-started-acme-cli/', title: 'Getting Started with acme-cli' },
      sources: [cliSource],
      answerMessageId: 'a1',
    },
    {
      kind: 'not-covered',
      at: new Date('2026-11-20T08:00:00Z'),
      question: 'How do I rotate the Typesense admin key?',
      comment: null,
      covered: false,
      confidence: 'none',
      mode: 'model',
      nearestPage: null,
      sources: [],
      answerMessageId: 'a2',
    },
  ]),
};

describe('formatReportText', () => {
  it('prints a Markdown report grouped by page with the question, the comment and the sources', () => {
    expect(formatReportText(report)).toBe(`# Dev Copilot report, 2026-11-15 12:00 to 2026-11-22 12:00 UTC

1 answer rated down and 1 question the docs did not answer, near 1 page(s).

## Getting Started with acme-cli (/getting-started-acme-cli/): 1 rated down

- 2026-11-21 09:30 rated down: "Why does npm say E401?"
  - comment: "It did not say tokens expire"
  - sources: Getting Started with acme-cli › Troubleshooting (/getting-started-acme-cli/#troubleshooting)

## No page came near: 1 not covered

- 2026-11-20 08:00 not covered: "How do I rotate the Typesense admin key?"
`);
  });

  it('tells an answer that only came close from one that did not cover the question', () => {
    const base = { comment: null, mode: 'docs-only' as const, nearestPage: null, sources: [], covered: false };
    const text = formatReportText({
      ...report,
      groups: groupReportItems([
        {
          ...base,
          kind: 'not-covered',
          at: new Date('2026-11-20T08:00:00Z'),
          question: 'near',
          confidence: 'closest',
          answerMessageId: 'c1',
        },
        {
          ...base,
          kind: 'not-covered',
          at: new Date('2026-11-20T07:00:00Z'),
          question: 'far',
          confidence: 'none',
          answerMessageId: 'c2',
        },
        {
          ...base,
          kind: 'rated-down',
          at: new Date('2026-11-20T06:00:00Z'),
          question: 'rated',
          comment: 'meh',
          confidence: 'closest',
          answerMessageId: 'c3',
        },
      ]),
    });
    expect(text).toContain('## No page came near: 1 rated down, 1 closest only, 1 not covered');
    expect(text).toContain('- 2026-11-20 08:00 closest only: "near"');
    expect(text).toContain('- 2026-11-20 07:00 not covered: "far"');
    expect(text).toContain(
      '- 2026-11-20 06:00 rated down: "rated"\n  - comment: "meh"\n  - the docs only came close to this question',
    );
  });

  it('stripsTerminalControlSequences: nothing stored reaches the terminal raw, page titles and sources included', () => {
    const hostile: Report = {
      ...report,
      groups: groupReportItems([
        {
          kind: 'rated-down',
          at: new Date('2026-11-21T09:30:00Z'),
          question: 'Hi\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 \u001b[2Jgone\u009b31m',
          comment: 'bad\u001b[8m hidden',
          covered: true,
          confidence: 'answered',
          mode: 'model',
          nearestPage: { url: '/faqs\u001b[2J', title: 'FAQs\u0007' },
          sources: [{ title: 'Deploy\u001b]0;pwned\u0007', url: '/deploy\u009b' }],
          answerMessageId: 'h1',
        },
      ]),
    };
    const text = formatReportText(hostile);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('"Hi]8;;https://evil.exampleclick]8;; [2Jgone31m"');
    expect(text).toContain('comment: "bad[8m hidden"');
    expect(text).toContain('## FAQs (/faqs[2J)');
    expect(text).toContain('sources: Deploy]0;pwned (/deploy)');
  });

  it('opens with the insights figures, topics and searches missed counted in readers, not in repeats', () => {
    const lastAt = '2026-11-22T11:00:00.000Z';
    const text = formatReportText({
      ...report,
      summary: {
        questions: { total: 4, answered: 1, closest: 1, none: 2 },
        unansweredTopics: [{ label: 'typesense key', page: null, count: 30, readers: 1, examples: [] }],
        searches: {
          total: 33,
          withoutResult: 33,
          withoutClick: 0,
          noResult: [
            { query: 'kubectl', readers: 2, searches: 3, lastAt },
            { query: 'visit evil.example', readers: 1, searches: 30, lastAt },
          ],
        },
      },
    });

    expect(text).toContain('- typesense key: 1 reader (no page came near)');
    expect(text).toContain('Searches that found nothing, most readers first:\n- "kubectl": 2 readers, 3x\n');
    expect(text).toContain('- "visit evil.example": 1 reader, 30x');
  });

  it('says so when there is nothing to report, and when the limit cut the list', () => {
    expect(formatReportText({ ...report, groups: [] })).toContain('No answers rated down and no questions');
    expect(formatReportText({ ...report, limit: 2 })).toContain('Only the newest 2 are shown');
  });
});

describe('formatReportJson', () => {
  it('gives the same groups as JSON with ISO dates', () => {
    const parsed = JSON.parse(formatReportJson(report));

    expect(parsed).toMatchObject({ generatedAt: '2026-11-22T12:00:00.000Z', since: '2026-11-15T12:00:00.000Z' });
    expect(parsed.groups[0]).toMatchObject({
      page: { url: '/getting-started-acme-cli/' },
      ratedDown: 1,
      notCovered: 0,
      items: [{ kind: 'rated-down', at: '2026-11-21T09:30:00.000Z', comment: 'It did not say tokens expire' }],
    });
    expect(parsed.groups[1].page).toBeNull();
  });
});

/** A report whose every stored text carries `hidden`. */
const carrying = (hidden: string): Report => ({
  ...report,
  groups: groupReportItems([
    {
      kind: 'rated-down',
      at: new Date('2026-11-21T09:30:00Z'),
      question: `admin${hidden}only`,
      comment: `ok${hidden}`,
      covered: true,
      confidence: 'answered',
      mode: 'model',
      nearestPage: { url: `/faqs${hidden}/`, title: `FAQs${hidden}` },
      sources: [{ title: `Deploy${hidden}`, url: '/deploy/' }],
      answerMessageId: 'h2',
    },
  ]),
});

const invisible = [
  ['DEL', '\u007f', '\\u007f'],
  ['C1 CSI', '\u009b', '\\u009b'],
  ['C1 NEL', '\u0085', '\\u0085'],
  ['line separator', '\u2028', '\\u2028'],
  ['paragraph separator', '\u2029', '\\u2029'],
  ['right-to-left override', '\u202e', '\\u202e'],
  ['left-to-right embedding', '\u202a', '\\u202a'],
  ['pop directional formatting', '\u202c', '\\u202c'],
  ['right-to-left isolate', '\u2067', '\\u2067'],
  ['pop directional isolate', '\u2069', '\\u2069'],
  ['right-to-left mark', '\u200f', '\\u200f'],
  ['Arabic letter mark', '\u061c', '\\u061c'],
  ['zero-width space', '\u200b', '\\u200b'],
  ['zero-width joiner', '\u200d', '\\u200d'],
  ['byte order mark', '\ufeff', '\\ufeff'],
  ['tag character (past U+FFFF)', '\u{e0041}', '\\udb40\\udc41'],
] as const;

describe('escapesTrojanSourceCharacters: bidi, zero-width, C1 and separators never reach a reader raw', () => {
  it.each(invisible)('the text report strips a %s', (_name, character) => {
    const text = formatReportText(carrying(character));
    expect(text).not.toContain(character);
    expect(text).toContain('"adminonly"');
    expect(text).toContain('## FAQs (/faqs/)');
    expect(text).toContain('sources: Deploy (/deploy/)');
  });

  it.each(invisible)(
    'the JSON report escapes a %s as \\uXXXX and still means the same',
    (_name, character, escaped) => {
      const json = formatReportJson(carrying(character));
      expect(json).not.toContain(character);
      expect(json).toContain(`"question": "admin${escaped}only"`);
      expect(JSON.parse(json).groups[0].items[0].question).toBe(`admin${character}only`);
    },
  );
});
