import { describe, expect, it } from 'vitest';
import { docSection } from '../../test-support/doc-sections.js';
import { judgeCoverage, retrieve } from './coverage.js';
import { createSearchEngine } from './engine.js';

const section = (page: string, heading: string, text: string) => docSection(page, page.slice(1), heading, text);

const engine = createSearchEngine([
  section(
    '/runner',
    'Registering a runner',
    'Register the GitLab runner with the registration token from the CI settings.',
  ),
  section('/ttl', 'Creating a policy', 'Create the Firestore TTL policy on the expireAt field with gcloud.'),
  section('/support', 'Severity levels', 'A SEV1 is answered within 15 minutes by the on-call developer.'),
]);

describe('judgeCoverage', () => {
  it('counts a question as covered when the best section holds its meaning', () => {
    expect(retrieve(engine, 'how do I register a gitlab runner?').coverage.covered).toBe(true);
  });

  it('is not fooled by chat filler around a covered question', () => {
    expect(
      retrieve(engine, 'hey sorry, nobody remembers: how do I register a gitlab runner tmrw morning?').coverage.covered,
    ).toBe(true);
  });

  it('declines a question about a name the docs never use', () => {
    const { coverage } = retrieve(engine, 'how do I register a kubernetes runner with helm?');
    expect(coverage.covered).toBe(false);
    expect(coverage.foreignNames).toEqual(expect.arrayContaining(['kubernet']));
  });

  it('declines when nothing was found', () => {
    expect(judgeCoverage(engine.queryTerms('qwxzvb'), [], engine.meaningWeight)).toMatchObject({
      covered: false,
      best: 0,
    });
  });

  it('may judge on the typed part alone when the whole (with a screenshot) says too little', () => {
    const noisy = 'register the gitlab runner zorblax quintar vextrom plimbo droggle';
    expect(retrieve(engine, noisy).coverage.covered).toBe(false);
    expect(retrieve(engine, noisy, { alsoJudgeBy: 'register the gitlab runner' }).coverage.covered).toBe(true);
  });

  it("never counts the reader's own names, numbers or everyday words against a question", () => {
    const asked =
      'so our runnerPool_2 on build-box-42.acme.dev in "Night Shift", all 3 of them: how do I register a gitlab runner?';
    expect(retrieve(engine, asked).coverage).toMatchObject({ confidence: 'answered', covered: true, foreignNames: [] });
  });

  it('counts a dictionary word the docs never write as the subject it names, not as an everyday word', () => {
    // "vacation" ranks nothing here, yet the question is about it: the runner section's "register" is not an answer.
    const asked = retrieve(engine, 'how do I register my vacation?');
    expect(asked.terms.find((term) => term.term === 'vacat')).toMatchObject({ generic: true, unusedWord: true });
    expect(asked.coverage.confidence).not.toBe('answered');
    // An everyday word the docs never write still counts for little.
    expect(retrieve(engine, 'sorry, how do I register the gitlab runner again?').coverage.confidence).toBe('answered');
  });

  it('answers, comes close, or declines by how much of the question the best section holds', () => {
    expect(retrieve(engine, 'how do I register a gitlab runner?').coverage.confidence).toBe('answered');
    // The runner section holds the subject, not the cloud it runs on.
    expect(retrieve(engine, 'how do I register a gitlab runner on hetzner with ansible?').coverage).toMatchObject({
      confidence: 'closest',
      covered: false,
    });
    expect(retrieve(engine, 'which grafana dashboard shows the kubernetes pods of our runner?').coverage).toMatchObject(
      {
        confidence: 'none',
        covered: false,
      },
    );
  });
});
