/**
 * `npm run -s copilot:report -- [--since 7d] [--limit 200] [--json]`: what Dev Copilot's readers did not get from the
 * docs, for the docs maintainers. Exit codes: 0 report printed, 1 the data could not be read, 2 bad command line.
 */
import { loadStoreLocation } from '../../config.js';
import { formatReportJson, formatReportText } from './format.js';
import { parseReportArguments, ReportUsageError, reportUsage } from './options.js';
import { createReport } from './report.js';
import { openReportStore } from './report-store.js';

async function main(): Promise<number> {
  const now = new Date();
  let options: ReturnType<typeof parseReportArguments>;
  try {
    options = parseReportArguments(process.argv.slice(2), now);
  } catch (error) {
    if (!(error instanceof ReportUsageError)) throw error;
    process.stderr.write(`copilot:report: ${error.message}\n\n${reportUsage}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${reportUsage}\n`);
    return 0;
  }
  try {
    const store = await openReportStore(loadStoreLocation());
    try {
      const report = await createReport(store.db, { since: options.since, limit: options.limit, now });
      process.stdout.write(options.json ? formatReportJson(report) : formatReportText(report));
    } finally {
      await store.close();
    }
    return 0;
  } catch (error) {
    process.stderr.write(`copilot:report: ${(error as Error).message}\n`);
    return 1;
  }
}

process.exitCode = await main();
