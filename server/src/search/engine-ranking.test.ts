import { describe, expect, it } from 'vitest';
import { builtSiteDirectory, readRecordedRanking, topSections } from '../../test-support/recorded-ranking.js';
import { createSearchEngine } from './engine.js';
import { readDocSections } from './sections.js';

const engine = createSearchEngine(readDocSections(builtSiteDirectory));
const recorded = readRecordedRanking();

describe('the ranking of the tuning questions, as recorded before the engine was made to scale', () => {
  it('has the recording to compare with', () => {
    expect(recorded.length).toBeGreaterThan(90);
  });

  it.each(recorded)('keeps the Copilot top sections of "$question"', ({ terms, copilotTop }) => {
    expect(topSections(engine, terms, false)).toEqual(copilotTop);
  });

  it.each(recorded)('keeps the search box top sections of "$question"', ({ terms, searchBoxTop }) => {
    expect(topSections(engine, terms, true)).toEqual(searchBoxTop);
  });
});
