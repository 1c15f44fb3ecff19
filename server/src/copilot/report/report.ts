import { readInsightsSummary } from '../../insights/summary.js';
import type { Database } from '../../store/database.js';
import { findReportItems } from '../../store/questions.js';
import type { Report } from './format.js';
import { groupReportItems } from './group.js';

/**
 * Answers rated down and questions not covered since `since`, grouped by the doc page closest to them, after the
 * insights page's headline figures (the same named queries).
 */
export async function createReport(
  db: Database,
  { since, limit, now = new Date() }: { since: Date | undefined; limit: number; now?: Date },
): Promise<Report> {
  const [items, summary] = await Promise.all([
    findReportItems(db, { since, limit }),
    readInsightsSummary(db, { from: since ?? new Date(0), to: now }),
  ]);
  return { generatedAt: now, since, limit, groups: groupReportItems(items), summary };
}
