import { ApiError } from '../../src/index.js';

/** The error a promise rejects with; fails the test if it resolves. */
export async function caught<E extends Error = ApiError>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    return error as E;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

export { ApiError };
