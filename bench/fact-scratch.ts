import { readFileSync } from 'node:fs';
import { readDocSections } from '../server/src/search/sections.js';
import { createSearchEngine } from '../server/src/search/engine.js';
import { retrieve } from '../server/src/search/coverage.js';
import { composeDocsOnlyAnswer } from '../server/src/copilot/ask/docs-only-answer.js';
const engine = createSearchEngine(readDocSections('site/build'));
const set = process.argv[2] ?? 'tuning';
const qs = JSON.parse(readFileSync(`bench/questions/${set}.json`, 'utf8'));
const norm = (s: string) => s.toLowerCase().replace(/[`*]/g, '').replace(/\s+/g, ' ');
let facts = 0; const lengths: number[] = [];
for (const q of qs.inScope) {
  const r = retrieve(engine, q.question);
  const a = composeDocsOnlyAnswer({ retrieval: r, termWeight: engine.termWeight, meaningWeight: engine.meaningWeight });
  lengths.push(a.markdown.length);
  const ok = q.facts.some((f: string) => norm(a.markdown).includes(norm(f)));
  if (ok) facts++;
  else if (process.argv[3]) console.log(`MISS [${q.facts.join(' / ')}] ${q.question}\n${a.markdown.slice(0, 600)}\n---`);
}
lengths.sort((a, b) => a - b);
console.log(`${set}: fact rate ${(facts / qs.inScope.length).toFixed(3)}, answer length median ${lengths[lengths.length >> 1]}`);
