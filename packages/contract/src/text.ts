import { z } from 'zod';

/** A UTF-16 surrogate without its other half: not a character, and not storable as UTF-8. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as it can be stored: without NUL (PostgreSQL text cannot hold it) and with lone surrogates as U+FFFD. */
export const storableText = (text: string): string => text.replaceAll('\0', '').replace(loneSurrogate, '\uFFFD');

/** A string a request sends to be kept or shown: made storable first, then checked by `rules`. */
export const storableString = <Rules extends z.ZodType<string, string>>(rules: Rules) =>
  z.string().transform(storableText).pipe(rules);

/**
 * Text without control or invisible characters: C0 and C1 controls, format characters (bidi embeddings, overrides
 * and isolates U+202A-U+202E and U+2066-U+2069, zero-width spaces, joiners and marks U+200B-U+200F, the byte order
 * mark U+FEFF) and the line and paragraph separators. A name holding one can show to a reader other than it is (a
 * right-to-left override turns `deploy\u202Egpj.exe` into `deployexe.jpg`), so names refuse them, never strip them.
 */
const printableText = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;

/**
 * A name a request gives something to be shown to a reader (a personal token's, an OAuth client's), checked before
 * it is trimmed: `field` names it in the refusal. Its other rules (trimmed, length) are the caller's.
 */
export const printableName = (field: string) =>
  z
    .string()
    .regex(
      printableText,
      `${field} must not contain control or invisible characters (such as a right-to-left override)`,
    );
