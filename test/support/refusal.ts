import { expect } from 'vitest';
import { DeskError } from '../../shared/views';

/** The DeskError a desk call is refused with (the test fails when it is not refused so). */
export async function refusal(promise: Promise<unknown>): Promise<DeskError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeskError);
  return error as DeskError;
}
