import { readFileSync } from 'node:fs';
import { readDocSections } from '../server/src/search/sections.js';
import { createSearchEngine } from '../server/src/search/engine.js';
import { pageKey, parseDocUrl } from '../server/src/search/urls.js';

const set = process.argv[2] ?? 'tuning';
const questions = JSON.parse(readFileSync(`bench/questions/${set}.json`, 'utf8'));
const t0 = performance.now();
const sections = readDocSections('site/build');
const t1 = performance.now();
const engine = createSearchEngine(sections);
const t2 = performance.now();
console.log(`read ${sections.length} sections ${(t1 - t0).toFixed(0)} ms, index ${(t2 - t1).toFixed(0)} ms`);
const key = (url: string) => { const { path, anchor } = parseDocUrl(url); return `${pageKey(path)}#${anchor ?? ''}`; };
let r1 = 0, r3 = 0, p3 = 0, mrr = 0;
const rows: string[] = [];
for (const q of questions.inScope) {
  const hits = engine.search(q.question, { limit: 10 });
  const want = new Set(q.sections.map(key));
  const wantPages = new Set(q.sections.map((u: string) => pageKey(parseDocUrl(u).path)));
  const rank = hits.findIndex((h) => want.has(key(h.url)));
  if (rank === 0) r1++;
  if (rank >= 0 && rank < 3) r3++;
  if (rank >= 0) mrr += 1 / (rank + 1);
  if (hits.slice(0, 3).some((h) => wantPages.has(pageKey(h.pageUrl)))) p3++;
  rows.push(`IN  cov=${(hits[0]?.coverage ?? 0).toFixed(2)} score=${(hits[0]?.score ?? 0).toFixed(1)} rank=${rank} ${process.argv[3] ? q.question + ' -> ' + (hits[0]?.url ?? '') : ''}`);
}
for (const q of questions.outOfScope) {
  const hits = engine.search(q.question, { limit: 10 });
  rows.push(`OUT cov=${(hits[0]?.coverage ?? 0).toFixed(2)} score=${(hits[0]?.score ?? 0).toFixed(1)} ${process.argv[3] ? q.question + ' -> ' + (hits[0]?.url ?? '') : ''}`);
}
const n = questions.inScope.length;
console.log(`${set}: recall@1 ${(r1 / n).toFixed(3)} recall@3 ${(r3 / n).toFixed(3)} page@3 ${(p3 / n).toFixed(3)} MRR ${(mrr / n).toFixed(3)}`);
if (process.argv[3]) console.log(rows.join('\n'));
const t3 = performance.now();
for (let i = 0; i < 200; i++) engine.search(questions.inScope[i % n].question, { limit: 8 });
console.log(`search ${((performance.now() - t3) / 200).toFixed(2)} ms each`);
