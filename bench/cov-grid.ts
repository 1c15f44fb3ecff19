import { readFileSync } from 'node:fs';
import { readDocSections } from '../server/src/search/sections.js';
import { createSearchEngine } from '../server/src/search/engine.js';
import { judgeCoverage } from '../server/src/search/coverage.js';
const engine = createSearchEngine(readDocSections('site/build'));
const qs = JSON.parse(readFileSync(`bench/questions/tuning.json`, 'utf8'));
const data = [...qs.inScope.map((q: any) => [true, q.question]), ...qs.outOfScope.map((q: any) => [false, q.question])].map(([inScope, question]) => {
  const terms = engine.queryTerms(question);
  const hits = engine.search(question, { limit: 8 });
  return { inScope, terms, hits };
});
const results: string[] = [];
for (const best of [0.15, 0.2, 0.25, 0.3, 0.35, 0.4]) for (const together of [0.2, 0.3, 0.4, 0.5, 0.6, 0.7]) for (const withForeignName of [0.7, 0.85, 1.01]) {
  process.env.COVERAGE_TUNE = JSON.stringify({ best, together, withForeignName });
  const { coverageThresholds } = await import('../server/src/search/coverage.js');
  Object.assign(coverageThresholds, { best, together, withForeignName });
  let falseNot = 0, declined = 0;
  for (const d of data) {
    const ev = judgeCoverage(d.terms, d.hits, engine.meaningWeight);
    if (d.inScope && !ev.covered) falseNot++;
    if (!d.inScope && !ev.covered) declined++;
  }
  const fn = falseNot / qs.inScope.length, oos = declined / qs.outOfScope.length;
  results.push(`${(oos - 3 * fn).toFixed(3)} best=${best} together=${together} foreign=${withForeignName} falseNot=${fn.toFixed(3)} oosDeclined=${oos.toFixed(3)}`);
}
results.sort().reverse();
console.log(results.slice(0, 12).join('\n'));
