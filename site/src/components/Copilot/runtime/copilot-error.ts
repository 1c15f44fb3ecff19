import type { ApiErrorBody } from '@acme/contract';

/** A failure the reader should see, with the server's code (e.g. `rate_limited:ask`) and an actionable message. */
export class CopilotError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CopilotError';
  }
}

/** Turns a non-2xx API response into a CopilotError, keeping the server's message when it sent one. */
export async function errorFromResponse(response: Response): Promise<CopilotError> {
  const body = (await response.json().catch(() => ({}))) as Partial<ApiErrorBody>;
  if (response.status === 401) {
    return new CopilotError('unauthorized', 'Your session has ended. Reload the page and sign in again.');
  }
  const message = body.error?.message ?? `Dev Copilot could not answer (HTTP ${response.status}). Try again.`;
  return new CopilotError(body.error?.code ?? `http_${response.status}`, message);
}
