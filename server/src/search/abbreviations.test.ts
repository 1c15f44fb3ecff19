import { describe, expect, it } from 'vitest';
import { docSection } from '../../test-support/doc-sections.js';
import { AbbreviationLearner } from './abbreviations.js';
import type { DocSection } from './doc-page.js';
import { createSearchEngine } from './engine.js';
import { coverageShare } from './query.js';

/** Sections that write `MR` and spell it out, a few sizing rules that only spell it out, and unrelated ones. */
const flow = [
  docSection(
    '/dev-flow/',
    'Dev flow',
    'Opening the MR',
    'Open a merge request from your branch; the MR template asks for a summary.',
  ),
  docSection('/dev-flow/', 'Dev flow', 'Review rules', 'Every merge request gets a review before the MR is merged.'),
  docSection(
    '/training/',
    'Training',
    'Exercises',
    'Each exercise ends with a merge request; mark the MR ready when CI is green.',
  ),
  docSection('/faqs/', 'FAQs', 'Change size', 'Keep a merge request under 400 changed lines, lockfiles excluded.'),
  docSection(
    '/faqs/',
    'FAQs',
    'Approvals',
    'One peer approves each merge request; billing changes need the tech lead.',
  ),
  docSection('/oncall/', 'On call', 'Approvals', 'The on-call lead approves a rollback.'),
  docSection('/tasks/', 'Cloud Tasks', 'Queues', 'Set max dispatches and the size of the queue in the config file.'),
  docSection(
    '/quality/',
    'Quality',
    'QC checkpoints',
    'The QC checkpoints run before release; QC checkpoints block a bad build.',
  ),
  docSection('/quality/', 'Quality', 'Release', 'QC checkpoints again, then the release notes. Mind the queue config.'),
  docSection('/quality/', 'Quality', 'Hotfix', 'QC checkpoints are skipped for a hotfix only with approval.'),
];

const learned = (sections: readonly DocSection[]) => {
  const learner = new AbbreviationLearner();
  for (const section of sections) learner.add(section);
  return learner.learned();
};

describe('abbreviations the handbook spells out', () => {
  it('learns an abbreviation from the sections that write it and the words whose initials spell it', () => {
    const abbreviations = learned(flow);

    expect(abbreviations.spelledOut('mr')).toEqual(['merg', 'request']);
    expect(abbreviations.abbreviationOf(['merg', 'request'])).toBe('mr');
  });

  it('learns nothing from an abbreviation written beside a word, nor from words met with it too rarely', () => {
    const abbreviations = learned(flow);

    expect(abbreviations.spelledOut('qc')).toBeUndefined();
    expect(abbreviations.spelledOut('ci')).toBeUndefined();
    expect(learned(flow.slice(0, 2)).spelledOut('mr')).toBeUndefined();
  });

  it('finds a section that spells out what the question abbreviates, and one that abbreviates what it spells out', () => {
    const engine = createSearchEngine(flow);

    const approvers = engine.search('who approves my MR', { limit: 8 }).map((hit) => hit.url);
    // Both sections on approvals hold the question's verb; only one is about merge requests, and it never writes MR.
    expect(approvers.slice(0, 2)).toContain('/faqs/#approvals');
    expect(approvers.indexOf('/faqs/#approvals')).toBeLessThan(approvers.indexOf('/oncall/#approvals'));
    expect(engine.search('how do I mark my merge request ready', { limit: 3 }).map((hit) => hit.url)).toContain(
      '/training/#exercises',
    );
  });

  it('counts the abbreviation as held only where all the words it stands for are', () => {
    const terms = createSearchEngine(flow).queryTerms('MR approvals');
    const share = (matched: string[]) => coverageShare(terms, new Set(matched), () => 1);

    expect(share(['approv', 'request'])).toBe(0.5);
    expect(share(['approv', 'merg', 'request'])).toBe(1);
    expect(share(['approv', 'mr'])).toBe(1);
  });

  it('reads a question without abbreviations as before', () => {
    const terms = createSearchEngine(flow).queryTerms('size of the queue');

    expect(terms.every((term) => !['mr', 'merg', 'request'].includes(term.term))).toBe(true);
  });
});
