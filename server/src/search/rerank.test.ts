import { describe, expect, it } from 'vitest';
import { docSection } from '../../test-support/doc-sections.js';
import { builtSiteDirectory } from '../../test-support/recorded-ranking.js';
import { rerankCandidatesOf, rerankWeightsOf } from '../../test-support/rerank-fit.js';
import { answerKindsOf } from './answer-kind.js';
import { retrieve } from './coverage.js';
import type { SearchHit } from './engine.js';
import { createSearchEngine } from './engine.js';
import { rerank, rerankCandidates, rerankFeatureNames, rerankFeatures, rerankWeights } from './rerank.js';
import { readDocSections } from './sections.js';

const engine = createSearchEngine(readDocSections(builtSiteDirectory));

describe("the Copilot's learned order of the best sections", () => {
  it('uses the weights the fit on the tuning questions gives today (fit again when this fails)', () => {
    const candidates = rerankCandidatesOf(engine);
    const questions = new Set(candidates.map((candidate) => candidate.question)).size;
    const refitted = rerankWeightsOf(candidates, questions, rerankWeights.fitted);
    expect(refitted.features).toEqual([...rerankFeatureNames]);
    expect(refitted.penalty).toBe(rerankWeights.penalty);
    const pairs = [
      [refitted.weights, rerankWeights.weights],
      [refitted.mean, rerankWeights.mean],
      [refitted.scale, rerankWeights.scale],
      [refitted.missing, rerankWeights.missing],
      [[refitted.intercept], [rerankWeights.intercept]],
    ] as const;
    for (const [actual, expected] of pairs) {
      expect(actual).toHaveLength(expected.length);
      actual.forEach((value, index) => {
        expect(value).toBeCloseTo(expected[index] ?? Number.NaN, 9);
      });
    }
  }, 120_000);

  it('is the order the Copilot retrieves in, cut to the limit asked for', () => {
    const question = 'how long until a Firestore TTL policy deletes expired documents?';
    const terms = engine.queryTerms(question);
    const candidates = engine.search(terms, { limit: rerankCandidates });
    const expected = rerank(terms, candidates, engine.meaningWeight, rerankWeights, { kinds: answerKindsOf(question) })
      .slice(0, 5)
      .map((hit) => hit.url);
    expect(retrieve(engine, question, { limit: 5 }).hits.map((hit) => hit.url)).toEqual(expected);
  });

  it('keeps first a section the question names by its heading, word for word', () => {
    const named = engine.sections.find((section) => section.heading === 'With gcloud');
    expect(named).toBeDefined();
    const terms = engine.queryTerms('with gcloud');
    const candidates = engine.search(terms, { limit: rerankCandidates });
    expect(candidates[0]?.heading).toBe('With gcloud');
    expect(rerank(terms, candidates, engine.meaningWeight)[0]?.heading).toBe('With gcloud');
  });

  it('puts the page a query names by its title above a section it names by its heading, as the engine does', () => {
    const intro = {
      ...docSection('/releases', 'Release train', 'x', 'How we ship.'),
      heading: undefined,
      level: 1 as const,
    };
    const section = docSection(
      '/deploys',
      'Deploys',
      'Release train',
      'The release train leaves every Tuesday at noon.',
    );
    const small = createSearchEngine([{ ...intro, url: '/releases', id: '/releases' }, section]);
    const terms = small.queryTerms('release train');
    const candidates = small.search(terms, { limit: rerankCandidates });
    expect(candidates.map((hit) => hit.url)).toEqual(['/releases', section.url]);
    // Whatever the learned order says of them, the two named sections keep the engine's order between them.
    const reordered = rerank(terms, [...candidates].reverse(), small.meaningWeight);
    expect(reordered.map((hit) => hit.url)).toEqual(['/releases', section.url]);
  });

  it('orders no candidate twice and loses none', () => {
    const terms = engine.queryTerms('who approves a production deploy on a friday?');
    const candidates = engine.search(terms, { limit: rerankCandidates });
    const reordered = rerank(terms, candidates, engine.meaningWeight);
    expect(new Set(reordered.map((hit) => hit.url))).toEqual(new Set(candidates.map((hit) => hit.url)));
    expect(reordered).toHaveLength(candidates.length);
  });
});

describe('the share held by a unit with the kind of answer asked for', () => {
  const kindAt = rerankFeatureNames.indexOf('kindUnit');
  const ttl = docSection(
    '/firestore',
    'Firestore',
    'TTL deletes',
    'TTL deletes remove expired documents. Deletes typically run within 24 hours of expiry.',
  );
  const vague = docSection('/firestore-2', 'Firestore', 'TTL notes', 'TTL deletes remove expired documents in time.');
  const small = createSearchEngine([ttl, vague]);
  const featuresOf = (question: string, kinds: Parameters<typeof rerankFeatures>[3]) => {
    const terms = small.queryTerms(question);
    const hits = small.search(terms, { limit: 2 });
    const features = rerankFeatures(terms, hits, small.meaningWeight, kinds);
    return new Map(hits.map((hit, place) => [hit.url, features[place]?.[kindAt]]));
  };

  it('counts only the units that hold a duration when one is asked for', () => {
    const shares = featuresOf('how long do ttl deletes take', ['duration']);
    expect(shares.get(ttl.url)).toBeGreaterThan(0);
    expect(shares.get(vague.url)).toBe(0);
  });

  it('is missing when the question asks for no kind of answer', () => {
    const shares = featuresOf('ttl deletes', []);
    expect([...shares.values()]).toEqual([undefined, undefined]);
  });
});

describe("the reader's own numbers and names in the learned order", () => {
  it('count for a candidate that holds them and against one that does not, when some candidate holds them', () => {
    const gateway = docSection('/tunnel', 'Tunnel', '502 Bad Gateway', 'The tunnel answers 502 when the app is down.');
    const create = docSection('/tunnel', 'Tunnel', 'Create the tunnel', 'Create the tunnel once per laptop.');
    const small = createSearchEngine([gateway, create]);
    const terms = small.queryTerms('tunnel 502');
    expect(terms.find((term) => term.term === '502')?.optional).toBe(true);
    const hits = small.search(terms, { limit: 2 });
    const headingAt = rerankFeatureNames.indexOf('heading');
    const features = rerankFeatures(terms, hits, small.meaningWeight);
    const heading = new Map(hits.map((hit, place) => [hit.url, features[place]?.[headingAt]]));
    expect(heading.get(gateway.url)).toBe(1);
    expect(heading.get(create.url)).toBeLessThan(1);
  });
});

describe('the heading share of a candidate', () => {
  const headingAt = rerankFeatureNames.indexOf('heading');
  const headingShare = (question: string, hit: SearchHit) =>
    rerankFeatures(engine.queryTerms(question), [hit], engine.meaningWeight)[0]?.[headingAt];

  it('follows a section renamed by a rebuild, not the names it had when last asked about', () => {
    const [hit] = engine.search('firestore ttl policy', { limit: 1 });
    if (!hit) throw new Error('no section for the question');
    const before = { ...hit, pageTitle: 'Retention', parentHeading: undefined, heading: 'Expiry of documents' };
    const after = { ...before, heading: 'Expiry of documents by TTL policy' };
    expect(headingShare('ttl policy', before)).toBe(0);
    expect(headingShare('ttl policy', after)).toBe(1);
    expect(headingShare('ttl policy', before)).toBe(0);
  });
});

describe("how much of a candidate's own heading the question names", () => {
  const namedAt = rerankFeatureNames.indexOf('headingNamed');
  const rollback = docSection('/go-live', 'Go-Live', 'Rollback', 'Redeploy the previous tag through the pipeline.');
  const hostingOnly = docSection(
    '/go-live',
    'Go-Live',
    'Hosting only',
    'Roll back Hosting alone when only the admin is bad.',
  );
  const small = createSearchEngine([rollback, hostingOnly]);

  it('counts a heading the question names in other words (roll back for Rollback), not one it does not', () => {
    const terms = small.queryTerms('how do I roll back a bad release?');
    const hits = small.search(terms, { limit: 2 });
    const features = rerankFeatures(terms, hits, small.meaningWeight);
    const named = new Map(hits.map((hit, place) => [hit.url, features[place]?.[namedAt]]));
    expect(named.get(rollback.url)).toBe(1);
    expect(named.get(hostingOnly.url)).toBe(0);
  });
});
