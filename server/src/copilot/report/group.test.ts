import { describe, expect, it } from 'vitest';
import type { ReportItem } from '../../store/questions.js';
import { groupReportItems, pageOf } from './group.js';

const item = (overrides: Partial<Omit<ReportItem, 'at'>> & { at: string }): ReportItem => ({
  kind: 'not-covered',
  question: 'q',
  comment: null,
  covered: false,
  confidence: 'none',
  mode: 'docs-only',
  nearestPage: null,
  sources: [],
  answerMessageId: overrides.at,
  ...overrides,
  at: new Date(overrides.at),
});
const faqs = { url: '/faqs/', title: 'FAQs' };
const cli = { url: '/getting-started-acme-cli/', title: 'Getting Started with acme-cli' };

describe('pageOf', () => {
  it('takes the logged nearest page, else the page of the first source, without the section anchor', () => {
    expect(pageOf(item({ at: '2026-11-01', nearestPage: { url: '/faqs/#npm', title: 'FAQs' } }))).toEqual(faqs);
    expect(
      pageOf(item({ at: '2026-11-01', sources: [{ title: 'FAQs › npm fails with E401', url: '/faqs/#npm' }] })),
    ).toEqual(faqs);
    expect(pageOf(item({ at: '2026-11-01' }))).toBeNull();
  });
});

describe('groupReportItems', () => {
  it('groups by page, bigger groups first, ties by the newest item, pageless last; items newest first', () => {
    const groups = groupReportItems([
      item({ at: '2026-11-20T10:00:00Z', question: 'lonely but newest' }),
      item({ at: '2026-11-19T10:00:00Z', nearestPage: faqs, kind: 'rated-down', question: 'faq old' }),
      item({ at: '2026-11-21T10:00:00Z', nearestPage: faqs, question: 'faq new' }),
      item({ at: '2026-11-18T10:00:00Z', nearestPage: cli, question: 'cli' }),
      item({ at: '2026-11-10T10:00:00Z', nearestPage: { url: '/other/', title: 'Other' }, question: 'other' }),
    ]);

    expect(groups.map((group) => [group.page?.url ?? null, group.ratedDown, group.notCovered])).toEqual([
      ['/faqs/', 1, 1],
      ['/getting-started-acme-cli/', 0, 1],
      ['/other/', 0, 1],
      [null, 0, 1],
    ]);
    expect(groups[0]?.items.map((entry) => entry.question)).toEqual(['faq new', 'faq old']);
  });
});
