import { readFileSync, statSync } from 'node:fs';
import type { AccessSettings } from '../config.js';
import { type AccessPolicy, parseAccessPolicy } from './access-policy.js';

type PolicyFile = {
  domains?: unknown;
  addresses?: unknown;
  allowSubdomains?: unknown;
  requireHostedDomain?: unknown;
  maintainers?: unknown;
  blocked?: unknown;
};

const reportIntervalMs = 5 * 60_000;

const list = (value: unknown) => (Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : '');

/** The policy of the ACCESS_* settings; a bad entry stops start-up with a message that names the settings. */
function environmentPolicy(settings: AccessSettings): AccessPolicy {
  try {
    return parseAccessPolicy(settings);
  } catch (error) {
    throw new Error(
      `Invalid configuration:\n  ACCESS_DOMAINS / ACCESS_ADDRESSES / ACCESS_BLOCKED_ADDRESSES / MAINTAINERS: ${(error as Error).message}`,
    );
  }
}

/**
 * The access policy in force. With a policy file, the file is re-read whenever its modification time changes, so
 * removing a domain or an address takes effect on the next request; a broken file keeps the last good policy.
 */
export function createPolicySource(
  settings: AccessSettings,
  policyFile: string | undefined,
  onError: (message: string) => void,
) {
  const fromEnvironment = environmentPolicy(settings);
  if (!policyFile) return { current: () => fromEnvironment };
  let policy = fromEnvironment;
  let loadedVersion = -1;
  let checkedAt = 0;
  const reload = () => {
    const version = statSync(policyFile).mtimeMs;
    if (version === loadedVersion) return;
    const contents = JSON.parse(readFileSync(policyFile, 'utf8')) as PolicyFile;
    policy = parseAccessPolicy({
      domains: list(contents.domains),
      addresses: list(contents.addresses),
      allowSubdomains: contents.allowSubdomains === true,
      requireHostedDomain:
        typeof contents.requireHostedDomain === 'boolean'
          ? contents.requireHostedDomain
          : fromEnvironment.requireHostedDomain,
      // A file without a maintainers list keeps MAINTAINERS from the environment.
      maintainers: contents.maintainers == null ? settings.maintainers : list(contents.maintainers),
      // Likewise a file without a blocked list (or with null) keeps ACCESS_BLOCKED_ADDRESSES.
      blocked: contents.blocked == null ? settings.blocked : list(contents.blocked),
    });
    loadedVersion = version;
  };
  reload();
  // A broken file is looked at every second until fixed; it is reported when the problem changes and then every few
  // minutes, not every second.
  let reported: { message: string; at: number } | undefined;
  return {
    current(now = Date.now()): AccessPolicy {
      if (now - checkedAt >= 1000) {
        checkedAt = now;
        try {
          reload();
          reported = undefined;
        } catch (error) {
          const message = `ACCESS_POLICY_FILE ${policyFile} could not be read; keeping the previous policy: ${error}`;
          if (reported?.message !== message || now - reported.at >= reportIntervalMs) {
            onError(message);
            reported = { message, at: now };
          }
        }
      }
      return policy;
    },
  };
}
