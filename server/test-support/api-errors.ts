import { ApiError, type ApiErrorCode } from '@acme/contract';
import { expect } from 'vitest';

/** Expects `promise` to reject with the ApiError of this code, and nothing else. */
export async function expectApiError(promise: Promise<unknown>, code: ApiErrorCode) {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe(code);
}
