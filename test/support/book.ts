import { expect } from 'vitest';
import type { BookJob } from '../../shared/book/views';
import { WHOLE_BOOK } from '../../shared/book/views';
import type { DeskHarness } from './desk-harness';
import { sandboxAdmin } from './desk-harness';

/** Helpers for the book's tests: strategies made in the sandbox, jobs waited for, the whole book. */

export { WHOLE_BOOK };

/** Creates `count` strategies in the sandbox (POST /sandbox/strategies); their ids. */
export async function createStrategies(
  baseUrl: string,
  body: { count: number; holdings?: number; executed_version?: boolean; name_prefix?: string },
): Promise<{ ids: string[]; versionIds: (string | null)[] }> {
  const answer = (await sandboxAdmin(baseUrl, 'POST', '/sandbox/strategies', body)) as {
    data: { ids: string[]; executed_version_ids: (string | null)[] };
  };
  return { ids: answer.data.ids, versionIds: answer.data.executed_version_ids };
}

/** Waits for the job to end (finished or cancelled) and gives its last state. */
export async function jobEnded(
  h: DeskHarness,
  jobId: string,
  timeoutMs = 60_000,
): Promise<BookJob> {
  const event = await h.waitFor(
    (e) => e.type === 'book-job-changed' && e.job.id === jobId && e.job.state !== 'running',
    timeoutMs,
  );
  if (event.type !== 'book-job-changed') throw new Error('not a job event');
  return event.job;
}

/** Every row of the book as it stands (one page, up to 500). */
export async function wholeBook(h: DeskHarness, profileId: string) {
  return (await h.desk.book.rows({ profileId, query: WHOLE_BOOK, offset: 0, limit: 500 })).rows;
}

/**
 * Every line of an add stored whole (added, with `holdings` holdings) or not at all (any other
 * outcome): a cancel or a stop never leaves a strategy half written.
 */
export function expectWholeOrNone(
  h: DeskHarness,
  profileId: string,
  lines: readonly { outcome: string; strategyId?: string | null }[],
  holdings: number,
): void {
  for (const line of lines) {
    const stored = h.desk.store.strategies.get(profileId, line.strategyId!);
    if (line.outcome === 'added') expect(stored?.positions).toHaveLength(holdings);
    else expect(stored).toBeNull();
  }
}

/** Adds ids through the book's "Add many" and waits for the add to end. */
export async function addMany(h: DeskHarness, profileId: string, ids: readonly string[]) {
  const job = await h.desk.book.addMany({ profileId, text: ids.join('\n') });
  return job.state === 'running' ? jobEnded(h, job.id) : job;
}
