import { describe, expect, it } from 'vitest';
import { docSection } from '../../../test-support/doc-sections.js';
import { docsOnlyAnswers } from '../../../test-support/docs-only-answers.js';

const sections = [
  docSection('/go-live-procedure', 'Go-Live Procedure', 'The release window', [
    {
      kind: 'table',
      header: ['Day', 'Production deploys', 'Notes'],
      rows: [
        ['Monday', 'No', 'Staging and QA day after the weekend'],
        ['Tuesday to Thursday', 'Yes, job started before 15:00 GMT+7', 'Leaves two office hours to monitor'],
        ['Friday, weekends', 'No', 'SEV1/SEV2 are mitigated by a flag switch or a rollback'],
        ['Black Friday to Cyber Monday', 'No', 'Freeze from the Wednesday before Black Friday'],
      ],
    },
    {
      kind: 'text',
      markdown:
        'Start by 15:00 means the deploy-production job is clicked before 15:00, not that it merely finishes before then. If the deploy slips past 15:00, move the release to the next window day. Outside the window, a SEV1 is first mitigated by a flag or a rollback, and a push of new code to production needs the tech lead.',
    },
  ]),
  docSection('/guide-using-cloud-tasks', 'Using Cloud Tasks', 'Enqueueing from Node', [
    {
      kind: 'text',
      markdown:
        'The dispatch deadline for HTTP tasks defaults to 10 minutes and can be set between 15 seconds and 30 minutes.',
    },
  ]),
  docSection('/guide-using-cloud-tasks', 'Using Cloud Tasks', 'Writing idempotent handlers', [
    {
      kind: 'text',
      markdown:
        'Cloud Tasks delivers at least once. A task can run twice (a rare duplicate dispatch, or a retry after a timeout), so every handler must give the same result when repeated:',
    },
    {
      kind: 'list',
      ordered: false,
      items: [
        'Set values instead of incrementing them.',
        'Record completion in `jobLogs` with the task name, and return early if it is already done.',
      ],
    },
  ]),
  docSection('/welcome', 'Welcome', 'Office', [{ kind: 'text', markdown: 'The office is open from nine to six.' }]),
  docSection('/core-v3', 'Updating to Core v3', 'Breaking changes', [
    { kind: 'text', markdown: 'What changes between v2 and v3, area by area.' },
    {
      kind: 'table',
      header: ['Area', 'v2', 'v3'],
      rows: [
        ['Module format', 'CommonJS', 'ESM only'],
        ['Runtime', 'Node 18 and 20', 'Node 20 only'],
        ['App structure', 'Class mixins', 'Composition of plain services'],
        ['Configuration', 'config/*.js merged by NODE_ENV', 'config.ts with a zod schema'],
        ['Webhooks', 'onOrdersPaid() methods', 'createWebhookRouter() handlers'],
        ['Auth', 'OAuth redirect flow', 'tokenExchangeAuth() middleware'],
        ['Admin API client', 'REST and GraphQL', 'GraphQL only'],
        ['Feature flags', 'app.flags.isOn()', 'isEnabled()'],
        ['Tests', 'Jest helpers in core/jest', 'Vitest helpers in core/testing'],
      ],
    },
  ]),
];
const docsOnly = docsOnlyAnswers(sections);
const answer = (question: string) => docsOnly.answer(question).markdown;

describe('the units an answer quotes', () => {
  it('quotes a short table whole, not only the row sharing a word with the question', () => {
    const reply = answer('Can I push a prod deploy at 4pm on a Wednesday?');
    // The row that answers names the range Wednesday falls in; only the freeze row holds the word itself.
    expect(reply).toContain('| Tuesday to Thursday | Yes, job started before 15:00 GMT+7 |');
    expect(reply).toContain('| Black Friday to Cyber Monday | No |');
  });

  it("quotes the whole list a question names by the section's heading, not the one row sharing its words", () => {
    const reply = answer('What are the breaking changes when upgrading to Core v3 with Vitest?');
    for (const area of ['Module format', 'Runtime', 'Auth', 'Feature flags', 'Tests'])
      expect(reply).toContain(`| ${area} |`);
  });

  it('never shows a sentence introducing a list without the start of the list', () => {
    const reply = answer('what dispatch deadline can I set on an http task?');
    expect(reply).toContain('can be set between 15 seconds and 30 minutes');
    expect(reply).toContain('Writing idempotent handlers');
    // No quoted line, in the answer or below it, ends on the colon that promises the list.
    expect(reply.split('\n').filter((line) => line !== 'Also in the handbook:' && line.endsWith(':'))).toEqual([]);
    expect(reply).toContain('when repeated: Set values instead of incrementing them.');
  });
});
