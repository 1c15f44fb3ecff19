import { describe, expect } from 'vitest';
import { test } from './fixtures';

test.override({ serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '1000' } });

const answered = 'How do I create a TTL policy for expireAt in Firestore?';
/** The TTL pages are near, but the handbook never names DynamoDB. */
const closest = 'How do I set a TTL policy on a DynamoDB table?';
const none = 'How do I configure the nginx ingress controller on our Kubernetes cluster with Helm?';

describe('how sure an answer is, in the widget', () => {
  test('marks an answer that only comes close and one the handbook does not cover, never a confident one, also after a reload', async ({
    reader: { site, copilot },
  }) => {
    await site.open('/');
    await copilot.open();
    for (const [position, question] of [answered, closest, none].entries()) {
      await copilot.ask(question);
      await copilot.waitForAnswer(position + 1);
    }
    const notes = async () =>
      Promise.all(
        [0, 1, 2].map(async (position) => {
          const note = copilot.answers.nth(position).getByTestId('copilot-confidence');
          return (await note.count()) ? [await note.getAttribute('data-confidence'), await note.innerText()] : null;
        }),
      );
    const shown = [
      null,
      // The answer itself opens with "The handbook may not answer this exactly": the note does not say it again.
      ['closest', 'Closest match'],
      ['none', 'Not covered by the handbook'],
    ];
    expect(await notes()).toEqual(shown);

    const close = copilot.answers.nth(1);
    expect(await close.innerText()).toMatch(
      /^Closest match\n+The handbook may not answer this exactly; the closest it comes is /,
    );
    expect((await close.innerText()).match(/may not answer this exactly/g)).toHaveLength(1);
    // The closest section is quoted and linked as such, and listed as the first source, not presented as the answer.
    expect(await close.locator('strong a').count()).toBe(0);
    const firstSource = close.getByTestId('copilot-sources').getByRole('link').first();
    const openingLink = close.locator('p a').first();
    expect(await firstSource.getAttribute('href')).toBe(await openingLink.getAttribute('href'));
    expect(await copilot.answers.nth(2).getByTestId('copilot-sources').count()).toBe(0);

    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(3);
    expect(await notes()).toEqual(shown);
    // Three answers typed out smoothly, twice (before and after the reload): about 30 s on a quiet 2-core machine.
  }, 90_000);
});
