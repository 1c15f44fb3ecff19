/**
 * The retrieval and answer figures alone, for every question set or the ones named (`tsx bench/questions/figures.ts
 * tuning`): quicker than `bench/retrieval.ts` while tuning. Prints figures only.
 */
import { siteBuildDirectory } from '../../e2e/harness';
import { createSearchEngine } from '../../server/src/search/engine.js';
import { readDocSections } from '../../server/src/search/sections.js';
import { figureLines, questionSets } from './evaluate';

const wanted = process.argv.slice(2);
const engine = createSearchEngine(readDocSections(siteBuildDirectory));
for (const { name, set } of questionSets()) {
  if (wanted.length === 0 || wanted.includes(name)) console.log(figureLines(engine, name, set).join('\n'));
}
