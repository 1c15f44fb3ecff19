import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Changes whenever a page is added, removed or rewritten: every index.html with its size and modification time. */
export function buildFingerprint(siteDirectory: string): string {
  const hash = createHash('sha1');
  const pages = readdirSync(siteDirectory, { recursive: true, encoding: 'utf8' })
    .filter((entry) => path.basename(entry) === 'index.html')
    .sort();
  for (const page of pages) {
    const stats = statSync(path.join(siteDirectory, page));
    hash.update(`${page}\0${stats.size}\0${stats.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

export type BuildFollower<T> = {
  /** What was derived from the build as it is now; derived again when the build changed, looked at once per interval. */
  current(): T;
};

/**
 * Keeps something derived from the built site (its file list, its search index) in step with a site rebuilt while the
 * server runs. A build that cannot be read or fails `usable` (for instance one half-written) keeps the previous value
 * until the next check.
 */
export function followBuild<T>(
  siteDirectory: string,
  derive: () => T,
  options: {
    usable?: (value: T) => boolean;
    checkIntervalMs?: number;
    now?: () => number;
    onKeptPrevious?: (error: unknown) => void;
  } = {},
): BuildFollower<T> {
  const checkIntervalMs = options.checkIntervalMs ?? 2000;
  const now = options.now ?? Date.now;
  let fingerprint = buildFingerprint(siteDirectory);
  let value = derive();
  let checkedAt = now();

  return {
    current() {
      if (now() - checkedAt < checkIntervalMs) return value;
      checkedAt = now();
      try {
        const latest = buildFingerprint(siteDirectory);
        if (latest === fingerprint) return value;
        const derived = derive();
        if (options.usable?.(derived) ?? true) {
          value = derived;
          fingerprint = latest;
        }
      } catch (error) {
        (
          options.onKeptPrevious ??
          ((reason) => console.warn(`Keeping the previous build of ${siteDirectory}.`, reason))
        )(error);
      }
      return value;
    },
  };
}
