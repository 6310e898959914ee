import type { AddOutcome } from './views';

/*
 * Plain values, no zod: the renderer's book screen uses them, and its chunk carries no zod
 * (test/integration/renderer/bundle.test.ts).
 */

/** Each outcome in the words the screen shows (the table and the copied outcomes). */
export const ADD_OUTCOME_TEXT: Record<AddOutcome, string> = {
  added: 'Added',
  'already-added': 'Already in the app',
  'not-found': 'Not found',
  'not-an-id': 'Not an id',
  duplicate: 'Duplicate',
  header: 'Header',
  failed: 'Failed',
  cancelled: 'Cancelled',
  'over-limit': 'Over the limit',
  waiting: 'Waiting',
};
