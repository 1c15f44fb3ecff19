import { describe, expect, it } from 'vitest';
import { answerKindsOf, holdsKind } from './answer-kind.js';
import { answerPassages } from './passages.js';

describe('answerKindsOf', () => {
  it.each([
    ['how long do we keep the frontend build of a release tag?', 'duration'],
    ['how many inline comments can the bot leave on one MR at most?', 'number'],
    ['which command deploys only the Firestore indexes?', 'command'],
    ['who has to approve my merge request?', 'name'],
    ['can I paste a merchant export into ChatGPT?', 'rule'],
    ['how do I propose an edit to a handbook page?', 'procedure'],
    ['what time is the daily mentor review slot?', 'duration'],
    ['which version of the search server do we run?', 'number'],
    ['polaris index table bulk action example', 'command'],
    ['which logs must never be dropped by an exclusion filter?', 'rule'],
    ['do we still implement the OAuth redirect flow?', 'rule'],
  ])('reads "%s" as asking for a %s first', (question, kind) => {
    expect(answerKindsOf(question)[0]).toBe(kind);
  });
});

describe('answers by what is asked', () => {
  const unit = (markdown: string) => ({ markdown, code: false, step: false });

  it('takes a yes/no verdict for a rule', () => {
    const unit = (markdown: string) => ({ markdown, code: false, step: false });
    expect(holdsKind('rule', unit('No. New installs use managed installation.'))).toBe(true);
    expect(holdsKind('rule', unit('**Yes.** Ask in #dev-help first.'))).toBe(true);
    expect(holdsKind('rule', unit('Notes on the new flow.'))).toBe(false);
  });

  it('tells a unit holding a duration from one holding only the words', () => {
    expect(holdsKind('duration', unit('Artifacts are kept for 180 days in GitLab.'))).toBe(true);
    expect(holdsKind('duration', unit('Artifacts of release tags are kept in GitLab.'))).toBe(false);
  });

  it('quotes the sentence with the duration asked for before one that only repeats the question', () => {
    const section = {
      blocks: [
        { kind: 'text' as const, markdown: 'Artifacts of release tags are kept in GitLab.' },
        { kind: 'text' as const, markdown: 'Other text follows here.' },
        { kind: 'text' as const, markdown: 'GitLab keeps release tag artifacts for 180 days.' },
      ],
    };
    const wanted = new Set(['artifact', 'releas', 'tag', 'kept', 'gitlab']);
    const quoted = answerPassages(section, wanted, () => 1, ['duration']);
    expect(quoted.startsWith('GitLab keeps release tag artifacts for 180 days.')).toBe(true);
    expect(answerPassages(section, wanted, () => 1).startsWith('Artifacts of release tags')).toBe(true);
  });

  it("puts a pitfall's fix first when its symptom is what matches the question", () => {
    const section = {
      blocks: [
        { kind: 'text' as const, markdown: '**Symptom:** the first request after a quiet night takes 6 seconds.' },
        { kind: 'text' as const, markdown: '**Cause:** the instance was scaled to zero.' },
        { kind: 'text' as const, markdown: '**Fix:** set minInstances to 1 on merchant-facing functions.' },
      ],
    };
    const wanted = new Set(['first', 'request', 'quiet', 'night', 'second']);
    const quoted = answerPassages(section, wanted, () => 1);
    expect(quoted.startsWith('**Fix:** set minInstances to 1')).toBe(true);
    expect(quoted).toContain('**Symptom:**');
  });
});
