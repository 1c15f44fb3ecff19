import { siteBuildDirectory } from '../../e2e/harness';
import { retrieve } from '../../server/src/search/coverage.js';
import { createSearchEngine } from '../../server/src/search/engine.js';
import { readDocSections } from '../../server/src/search/sections.js';
import { questionSet } from './evaluate';

const engine = createSearchEngine(readDocSections(siteBuildDirectory));
const set = questionSet(process.argv[2] ?? 'tuning');
const rows: unknown[] = [];
const row = (question: string, inScope: boolean, sections: string[] = []) => {
  const r = retrieve(engine, question);
  const hits = r.hits;
  const top = hits[0];
  const unmatched = r.terms.filter((t) => !t.expansion && !t.optional && !t.generic && !hits.slice(0, 3).some((h) => h.matchedQueryTerms.has(t.term)));
  rows.push({
    inScope, question, conf: r.coverage.confidence, best: +r.coverage.best.toFixed(3), together: +r.coverage.together.toFixed(3),
    foreign: r.coverage.foreignNames, near: top?.nearness?.toFixed(3), score: top?.score.toFixed(2), gap: hits[1] ? (hits[1].score / top!.score).toFixed(2) : '',
    unmatched: unmatched.map((t) => `${t.term}:${engine.meaningWeight(t).toFixed(2)}`).join(' '),
    terms: r.terms.filter(t=>!t.expansion).map((t) => `${t.term}${t.optional?'?':''}${t.generic?'~':''}${t.foreign?'!':''}`).join(' '),
    right: sections.length ? hits.slice(0,3).some(h=>sections.some(s=>h.url.endsWith(s)||h.url===s)) : undefined,
  });
};
for (const q of set.inScope) row(q.question, true, q.sections);
for (const q of set.outOfScope) row(q.question, false);
console.log(JSON.stringify(rows));
