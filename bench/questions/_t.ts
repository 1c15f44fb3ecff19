import { siteBuildDirectory } from '../../e2e/harness';
import { readDocSections } from '../../server/src/search/sections.js';
import { indexSections, fieldBoosts } from '../../server/src/search/section-terms.js';
import { latentSemanticsOf } from '../../server/src/search/latent-semantics.js';
import { largerHandbook } from '../larger-handbook';
const base = readDocSections(siteBuildDirectory);
for (const copies of [1, 1, 10, 100]) {
  const sections = largerHandbook(base, copies);
  const index = indexSections(sections);
  const cpu = process.cpuUsage();
  const t = performance.now();
  const lsi = latentSemanticsOf(index, { dimensions: 100, fieldBoosts: Object.values(fieldBoosts) });
  const used = process.cpuUsage(cpu);
  console.log(copies, sections.length, 'terms', index.terms.length, 'wall', (performance.now() - t).toFixed(0), 'cpu', ((used.user + used.system) / 1000).toFixed(0), 'MB', ((lsi.termVectors.byteLength + lsi.sectionVectors.byteLength) / 1e6).toFixed(1));
}
