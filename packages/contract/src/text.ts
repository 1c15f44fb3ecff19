import { z } from 'zod';

/** A UTF-16 surrogate without its other half: not a character, and not storable as UTF-8. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as it can be stored: without NUL (PostgreSQL text cannot hold it) and with lone surrogates as U+FFFD. */
export const storableText = (text: string): string => text.replaceAll('\0', '').replace(loneSurrogate, '\uFFFD');

/** A string a request sends to be kept or shown: made storable first, then checked by `rules`. */
export const storableString = <Rules extends z.ZodType<string, string>>(rules: Rules) =>
  z.string().transform(storableText).pipe(rules);
