import { readFileSync } from 'node:fs';
import { readDocSections } from '../server/src/search/sections.js';
import { createSearchEngine } from '../server/src/search/engine.js';
const engine = createSearchEngine(readDocSections('site/build'));
const qs = JSON.parse(readFileSync(`bench/questions/${process.argv[2] ?? 'tuning'}.json`, 'utf8'));
const rows: Array<[boolean, number, number, number, string]> = [];
for (const [inScope, list] of [[true, qs.inScope], [false, qs.outOfScope]] as const) {
  for (const q of list) {
    const hits = engine.search(q.question, { limit: 5 });
    const best = hits[0];
    const terms = engine.queryTerms(q.question);
    const unknown = terms.filter((t) => t.foreign && !hits.some((h) => h.matchedQueryTerms.has(t.term)));
    const union = new Set(hits.slice(0, 3).flatMap((h) => [...h.matchedQueryTerms]));
    rows.push([inScope, best?.coverage ?? 0, unknown.length, Math.max(...hits.slice(0,3).map(h=>h.coverage),0), `${unknown.map((t) => t.term).join(',')} | ${q.question.slice(0, 70)}`]);
  }
}
rows.sort((a, b) => a[1] - b[1]);
for (const r of rows) console.log(`${r[0] ? 'IN ' : 'OUT'} cov=${r[1].toFixed(2)} unk=${r[2]} ${r[4]}`);
