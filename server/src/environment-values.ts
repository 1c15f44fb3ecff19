import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/*
 * How one environment variable's text is read: the pieces config.ts builds its schema from. Each refuses a bad value
 * with a message naming what it expected; none knows which variable it reads.
 */

/** `true`/`1` or `false`/`0`; anything else (`yes`) is refused rather than guessed. */
export const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** Text with its blanks trimmed; empty or only blanks counts as unset. */
export const text = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** An optional URL whose scheme matches `protocol` (`/^https?$/`). */
export const url = (protocol: RegExp) => text.pipe(z.url({ protocol }).optional());
export const webUrl = url(/^https?$/);

/** A whole number above zero: a limit or a count. */
export const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** A time in seconds above zero (fractions allowed), at most `most`. */
export const seconds = (fallback: number, most: number) => z.coerce.number().positive().max(most).default(fallback);

/** A folder, made absolute against the directory the server was started in. */
export const directory = (fallback: string) =>
  z
    .string()
    .min(1)
    .default(fallback)
    .transform((folder) => path.resolve(folder));

function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/** IP addresses and CIDR ranges separated by commas or blanks; empty: none. */
export const proxyList = z
  .string()
  .default('')
  .transform((list) => list.split(/[\s,]+/).filter(Boolean))
  .pipe(z.array(z.string().refine(isAddressOrRange, 'must list IP addresses or CIDR ranges, e.g. 10.0.0.0/8')));

/** True for a host name that can only be this machine. */
export const isLoopbackHost = (hostname: string) =>
  /^(localhost|127(\.\d{1,3}){3}|\[::1\]|.+\.localhost)$/.test(hostname);
