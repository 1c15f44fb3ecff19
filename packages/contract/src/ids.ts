import { z } from 'zod';

/** Thread and message ids: the server makes them (UUIDs); older ones are 1-100 letters, digits, "_" or "-". */
export const recordId = z.string().regex(/^[\w-]{1,100}$/, 'ids are 1-100 letters, digits, "_" or "-"');
