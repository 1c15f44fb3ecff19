/** Limits both sides enforce: the widget trims and warns before sending, the server refuses past them. */

/** The spec's limit for one image, decoded (5 MB). */
export const maxImageBytes = 5_242_880;
/** The same limit in base64 characters, as an attachment's `content` carries it (four for every three bytes). */
export const maxImageBase64Characters = Math.ceil(maxImageBytes / 3) * 4;
export const maxImagesPerMessage = 4;
/** Messages in one stateless askAi call. */
export const maxMessages = 50;
/** Text parts of one askAi message (a script may split its text; the widget sends one). */
export const maxTextPartsPerMessage = 100;
/**
 * Commas, colons and opening brackets in a question's JSON body, strings included: a body at every other limit holds
 * about 110,000 (50 messages of 100 parts, 32,000 characters of text, 200 image names), so this refuses only a body
 * built to be slow to parse.
 */
export const maxQuestionBodyMarks = 250_000;
/** Characters of text in one askAi call, or in one question of a turn. */
export const maxTextCharacters = 32_000;
export const allowedImageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type AllowedImageType = (typeof allowedImageTypes)[number];

export const maxThreadTitleCharacters = 200;
/**
 * Messages one chat holds, branches included (250 questions and their answers): every turn reads its thread, and a
 * reader reads it whole, so a chat cannot grow without end (3,000 turns were 194 MB to read back).
 */
export const maxMessagesPerThread = 500;
/**
 * Chats one reader keeps, archived ones included: each is a row kept until its reader deletes it, and the limit a minute
 * on new ones only slows a script that fills the database over days. Far more than a reader goes back to; none is
 * ever deleted to make room, the reader chooses which to delete.
 */
export const maxThreadsPerReader = 1000;
export const maxFeedbackCommentCharacters = 1000;
/** The widget's page path; longer is not one of ours. */
export const maxPagePathCharacters = 2048;
