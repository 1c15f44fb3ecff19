import type { Database } from '../../store/database.js';
import { findReportItems } from '../../store/questions.js';
import type { Report } from './format.js';
import { groupReportItems } from './group.js';

/** Answers rated down and questions not covered since `since`, grouped by the doc page closest to them. */
export async function createReport(
  db: Database,
  { since, limit, now = new Date() }: { since: Date | undefined; limit: number; now?: Date },
): Promise<Report> {
  const items = await findReportItems(db, { since, limit });
  return { generatedAt: now, since, limit, groups: groupReportItems(items) };
}
