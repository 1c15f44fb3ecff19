import { maxImageBytes, maxQuestionBodyMarks } from './limits.js';

declare const detailMark: unique symbol;

/**
 * A message a refusal carries instead of its code's (`apiErrors`), saying exactly what is wrong with this request.
 * Only the builders below make one, so every word a reader or a script is shown is written in this package.
 */
export type ErrorDetail = string & { readonly [detailMark]: true };

const detail = (text: string) => text as ErrorDetail;

/** Where a request went wrong (`attachments.0`, `body.q`) and what is wrong there, as its schema says it. */
export type RequestIssue = { path: readonly PropertyKey[]; message?: string | undefined };

/** The features a signed-in reader's API serves, as the guard names them. */
export type GuardedFeature = 'Dev Copilot' | 'search' | 'access tokens' | 'the handbook';

/** Long enough for every message our schemas write; a schema's list of unknown keys is cut, not sent back whole. */
const maxIssueCharacters = 300;
const shortened = (text: string) =>
  text.length <= maxIssueCharacters ? text : `${text.slice(0, maxIssueCharacters - 1)}…`;

const atPath = ({ path, message = 'is not valid' }: RequestIssue) =>
  shortened(path.length ? `${path.map(String).join('.')}: ${message}` : message);

const megabytes = (bytes: number) => `${Math.round(bytes / 1_048_576)} MB`;

/** The detail messages of the registry's codes, by the code they go with. */
export const errorDetails = {
  /** `bad_request:*`: a request that failed its schema, its first five issues in one sentence. */
  invalidRequest: (issues: readonly RequestIssue[]) => detail(issues.slice(0, 5).map(atPath).join('; ')),
  /** `bad_request:*`: a body Fastify could not take, with what to send instead. */
  requestBody: {
    tooLarge: detail('The request is too large.'),
    questionTooLarge: detail('The request is too large. Send fewer or smaller screenshots, or a shorter text.'),
    notJson: detail('Send the request body as JSON (content-type: application/json).'),
    empty: detail('The request body is empty; it must be JSON.'),
    invalidJson: detail('The request body is not valid JSON.'),
    tooManyValues: detail(
      `The request holds too many JSON values (over ${maxQuestionBodyMarks.toLocaleString('en-US')} commas, colons and brackets); send only the fields a question has.`,
    ),
    /** A body sent with a Content-Encoding other than identity (`encoding` as sent, when it reads as one). */
    compressed: (encoding: string) =>
      detail(`Send the request body uncompressed; Content-Encoding ${encoding} is not accepted.`),
  },
  /** `bad_request:input` of a request Node could not read as HTTP, answered before any route sees it. */
  framing: {
    malformed: detail('The request is not well-formed HTTP/1.1 (its headers or chunked body), so it was not read.'),
    headersTooLarge: detail(
      "The request headers are too large; send fewer or shorter ones (in a browser, clear this site's cookies).",
    ),
    timeout: detail('The request did not arrive whole in time; send it again.'),
    noHost: detail('The request has no Host header, which HTTP/1.1 requires; name the host you are asking.'),
  },
  /** `bad_request:path` */
  path: {
    notPercentEncoded: detail('The path is not valid percent-encoding.'),
    forbiddenCharacters: detail('The path has characters that are not allowed.'),
    dotSegments: detail('The path may not contain "." or ".." segments.'),
  },
  /** `bad_request:attachment`, naming the attachment (`attachments.0`) as a script needs it. */
  attachment: {
    notAccepted: (label: string, contentType: string) =>
      detail(`${label}: ${contentType || 'an empty type'} is not accepted; send PNG, JPEG, GIF or WebP`),
    tooLarge: (label: string) => detail(`${label}: images may be at most ${megabytes(maxImageBytes)}`),
    notBase64: (label: string) =>
      detail(`${label}: content must be plain base64 (no data: prefix, no spaces or line breaks)`),
    empty: (label: string) => detail(`${label}: the image is empty`),
    notThatFormat: (label: string, format: string) => detail(`${label}: the bytes are not a ${format} image`),
    severalFormats: (label: string, formats: string) =>
      detail(`${label}: the bytes are ${formats}; send the image as saved`),
  },
  /** `bad_request:parent_id` */
  place: {
    questionAfterAnswer: detail('A question follows an answer of the same chat (or nothing, for the first).'),
    answerAfterQuestion: detail('An answer follows a question of the same chat.'),
    retryOfQuestion: detail('retryOf must be a question of this chat.'),
    parentIdAnswer: detail('parentId must be an answer of this chat, or null for a first question.'),
  },
  /** `unauthorized:session`, `forbidden:access` and `forbidden:origin` of an API's guard. */
  guard: {
    signIn: (feature: GuardedFeature) => detail(`Sign in to use ${feature}.`),
    notAllowed: (feature: GuardedFeature) => detail(`This account is not allowed to use ${feature}.`),
    fromOurPages: (feature: GuardedFeature) => detail(`Use ${feature} from the handbook itself.`),
    signOutFromOurPages: detail('Sign out from the handbook itself.'),
    tokensNeedSession: detail('Sign in to the handbook to manage access tokens.'),
    tokenOwnerRefused: detail('The account this token belongs to may no longer read the handbook.'),
    /** `unauthorized:token_missing`, for a token put in the address: never read, it would be kept in logs and history. */
    tokenInAddress: detail(
      'A token in the address (?token=, ?access_token=) is not read: addresses are kept in logs and browser history. Send it as the header "Authorization: Bearer <token>".',
    ),
  },
  /** `rate_limited:ask`, `rate_limited:search` and `rate_limited:threads`: the reader's limit a minute and when to try again. */
  tooManyAMinute: (what: 'questions' | 'searches' | 'new chats', max: number, retryAfterSeconds: number) =>
    detail(`Too many ${what}: at most ${max} a minute. Try again in ${retryAfterSeconds} s.`),
  /** `rate_limited:concurrent` */
  tooManyAtOnce: (max: number) => detail(`At most ${max} questions at once.`),
  /** `conflict:token_limit` */
  tokenLimit: (max: number) =>
    detail(`You have ${max} tokens, the most one reader may hold; revoke one you no longer use.`),
  /** `conflict:thread_limit` */
  threadLimit: (max: number) =>
    detail(
      `You have ${max.toLocaleString('en-US')} chats (archived ones included), the most one reader may keep. Delete chats you no longer need to start a new one; none are deleted for you.`,
    ),
  /** `conflict:thread_status` */
  threadStatus: (from: string, to: string) =>
    detail(`Only a ${from} chat can become ${to}; this one is ${to} already.`),
} as const;
