import { describe, expect, it } from 'vitest';
import { docSection } from '../../test-support/doc-sections.js';
import { coverageThresholds, judgeCoverage } from './coverage.js';
import { createSearchEngine, type SearchHit } from './engine.js';
import { latentRanker } from './latent-ranking.js';
import { latentSemanticsOf } from './latent-semantics.js';
import { fieldBoosts, indexSections } from './section-terms.js';

/** Two topics, each written in several sections that share its vocabulary, and one section that joins words. */
const sections = [
  docSection('/deploy', 'Deploying', 'Rollback', 'Roll back a release with the rollback job in the pipeline.'),
  docSection('/deploy', 'Deploying', 'Release', 'A release runs the pipeline: the deploy job, then the smoke tests.'),
  docSection('/deploy', 'Deploying', 'Canary', 'The pipeline deploys a canary release before the full deploy job.'),
  docSection('/deploy', 'Deploying', 'Hotfix', 'A hotfix release skips the canary; the pipeline still runs the job.'),
  docSection('/ttl', 'Firestore TTL', 'Policy', 'A TTL policy deletes expired documents of a Firestore collection.'),
  docSection(
    '/ttl',
    'Firestore TTL',
    'Field',
    'The expiry field of each document holds the timestamp the policy reads.',
  ),
  docSection('/ttl', 'Firestore TTL', 'Indexes', 'Exempt the expiry field from indexes in the Firestore collection.'),
  docSection(
    '/ttl',
    'Firestore TTL',
    'Deletion',
    'Expired documents are deleted within a day of their expiry timestamp.',
  ),
];
const index = indexSections(sections);
const engine = createSearchEngine(sections);
const at = (url: string) => sections.findIndex((section) => section.url === url);

/** How near each section is to a query in a space of `dimensions` (two: the handbook's two topics). */
function nearness(query: string, dimensions = 2) {
  const fields = Object.values(fieldBoosts);
  const space = { ...index, latent: latentSemanticsOf(index, { dimensions, fieldBoosts: fields }) };
  const near = latentRanker(space)?.(engine.queryTerms(query), engine.meaningWeight);
  if (!near) throw new Error('no space, or no term of the query in it');
  return (url: string) => near(at(url));
}

describe('the latent space learned from the handbook', () => {
  it('bringsASectionNearInMeaningWithoutSharingAWord: words used together stand for each other', () => {
    const near = nearness('rollback');
    // "Canary" never says rollback (the words alone do not find it); it shares "release", "pipeline" and "job" with
    // the section that does, and the TTL sections share nothing with either.
    expect(engine.search('rollback').map((hit) => hit.url)).not.toContain('/deploy#canary');
    expect(near('/deploy#canary')).toBeGreaterThan(0.8);
    expect(near('/ttl#indexes')).toBeLessThan(0.3);
    expect(nearness('expiry')('/ttl#policy')).toBeGreaterThan(0.8);
  });

  it('isTheSameSpaceForTheSameDocs: rankings do not change between builds', () => {
    const again = indexSections(sections);
    expect(again.latent?.sectionVectors).toEqual(index.latent?.sectionVectors);
    expect(again.latent?.termVectors).toEqual(index.latent?.termVectors);
  });

  it('foldsInSectionsLeftOutOfTheDecomposition: its cost is bounded, every section still has a place', () => {
    const bounded = latentSemanticsOf(index, {
      dimensions: 2,
      sampleLimit: 4,
      fieldBoosts: Object.values(fieldBoosts),
    });
    expect(bounded.dimensions).toBe(2);
    for (let section = 0; section < sections.length; section += 1) {
      const vector = [...bounded.sectionVectors.slice(section * 2, section * 2 + 2)];
      expect(Math.hypot(...vector)).toBeGreaterThan(120);
    }
  });

  it('carriesNoSpaceForAHandbookOfOneSection', () => {
    expect(indexSections(sections.slice(0, 1)).latent).toBeUndefined();
    expect(createSearchEngine(sections.slice(0, 1)).search('rollback')[0]?.nearness).toBeUndefined();
  });

  it('givesEachHitItsNearness: the cosine in the space of the index', () => {
    const [best] = engine.search('rollback release');
    expect(best?.url).toBe('/deploy#rollback');
    const dimensions = index.latent?.dimensions;
    expect(best?.nearness).toBeCloseTo(nearness('rollback release', dimensions)('/deploy#rollback'), 5);
  });
});

describe('coverage with the latent space', () => {
  const hit = (matched: string[], nearness: number | undefined): SearchHit => ({
    ...(sections[0] as (typeof sections)[number]),
    score: 1,
    matchedTerms: new Set(matched),
    matchedQueryTerms: new Set(matched),
    coverage: 0,
    nearness,
  });
  const terms = engine.queryTerms('rollback pipeline canary hotfix');
  /** The best section holds some of the question, a second one the rest: answered by words alone. */
  const judged = (nearness: number | undefined, matched = ['rollback', 'pipelin']) =>
    judgeCoverage(terms, [hit(matched, nearness), hit(['canari', 'hotfix'], 0.9)], engine.meaningWeight);

  it('takesSharedWordsFarInMeaningAsTheClosestOnly: the best section holds some words, not the subject', () => {
    const { best, together } = judged(0.9);
    expect(best).toBeGreaterThanOrEqual(coverageThresholds.best);
    expect(best).toBeLessThan(coverageThresholds.farBest);
    expect(together).toBeGreaterThanOrEqual(coverageThresholds.together);
    expect(judged(0.9).confidence).toBe('answered');
    expect(judged(undefined).confidence).toBe('answered');
    expect(judged(coverageThresholds.far - 0.05).confidence).toBe('closest');
  });

  it('neverDemotesABestSectionThatHoldsMostOfTheQuestion', () => {
    const most = judged(0.05, ['rollback', 'pipelin', 'hotfix']);
    expect(most.best).toBeGreaterThanOrEqual(coverageThresholds.farBest);
    expect(most.confidence).toBe('answered');
  });
});
