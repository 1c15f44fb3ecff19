import { type ApiErrorBody, type ApiErrorCode, apiErrors } from '@acme/contract';
import { sessionEndedMessage } from '../../Auth/session-ended';

/** A failure the reader should see, with the server's code (e.g. `rate_limited:ask`) and an actionable message. */
export class CopilotError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** When asking again can succeed (ms since the epoch): a limit's Retry-After, counted from the refusal. */
    readonly retryAt?: number,
  ) {
    super(message);
    this.name = 'CopilotError';
  }
}

/**
 * The code of a session that ended (ours, `unauthorized`, or the server's, `unauthorized:session`): it cannot be asked
 * again, only a reload (and a new sign-in) helps.
 */
export const endsSession = (code: unknown) => typeof code === 'string' && /^unauthorized(:|$)/.test(code);
export const isSessionEnded = (error: unknown) => error instanceof CopilotError && endsSession(error.code);

/** The moment a refusal's Retry-After (seconds) points at, if it sent one. */
const retryAtOf = (response: Response): number | undefined => {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Date.now() + seconds * 1000 : undefined;
};

/**
 * Refusals whose server message is written for API callers ("attachments.0: the bytes are not a PNG image"): the
 * reader gets the contract's words for the code instead.
 */
const readersWords: Partial<Record<ApiErrorCode, true>> = { 'bad_request:attachment': true };

/** Turns a non-2xx API response into a CopilotError, keeping the server's message when it sent one. */
export async function errorFromResponse(response: Response): Promise<CopilotError> {
  const body = (await response.json().catch(() => ({}))) as Partial<ApiErrorBody>;
  if (response.status === 401) {
    return new CopilotError('unauthorized', sessionEndedMessage);
  }
  const code = body.error?.code;
  if (code && code in readersWords) return new CopilotError(code, apiErrors[code].message);
  const message = body.error?.message ?? `Dev Copilot could not answer (HTTP ${response.status}). Try again.`;
  return new CopilotError(code ?? `http_${response.status}`, message, retryAtOf(response));
}

/**
 * A call's response, or a CopilotError the reader can act on when the server could not be reached at all: the
 * browser says only "Failed to fetch" (Chromium) or "NetworkError when attempting to fetch resource." (Firefox).
 * A call the reader aborted stays an abort.
 */
export async function reached(call: Promise<Response>): Promise<Response> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof TypeError) {
      throw new CopilotError(
        'network',
        "Dev Copilot could not reach the handbook's server. Check your connection, then try again.",
      );
    }
    throw error;
  }
}
