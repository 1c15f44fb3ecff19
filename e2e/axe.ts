import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Every axe-core violation on the page (all impacts, minor included), as "rule: first elements (message)", so a
 * failing test says what to fix.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the page's CSP stays untouched.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Node = { target: string[]; failureSummary?: string };
    type Violation = { id: string; impact: string; nodes: Node[] };
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: Violation[] }> } }).axe;
    const { violations } = await axe.run();
    return violations.map(
      (violation) =>
        `${violation.id} (${violation.impact}, ${violation.nodes.length}): ` +
        violation.nodes
          .slice(0, 3)
          .map((node) => `${node.target.join(' ')} (${node.failureSummary?.split('\n')[1]?.trim() ?? ''})`)
          .join('; '),
    );
  });
}
