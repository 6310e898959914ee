import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { wholeBook } from '../../support/book';

/**
 * The book's automatic refresh: off by default; with an interval set, the strategies not read for
 * that long are refreshed through the profile's queue. A minute lasts 20 ms here.
 */
describe('the automatic refresh of the book', () => {
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0, bookMinuteMs: 20 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is off by default, and refreshes the strategies due once an interval is set', async () => {
    expect((await h.desk.book.settings({})).autoRefreshMinutes).toBeNull();
    // Ten of its minutes pass without a refresh.
    const before = await wholeBook(h, profileId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(h.events.some((e) => e.type === 'book-job-changed')).toBe(false);

    await h.desk.book.saveSettings({ autoRefreshMinutes: 5 });
    const started = await h.waitFor(
      (e) => e.type === 'book-job-changed' && e.job.kind === 'refresh',
    );
    if (started.type !== 'book-job-changed') throw new Error('not a job event');
    await h.waitFor(
      (e) =>
        e.type === 'book-job-changed' && e.job.id === started.job.id && e.job.state === 'finished',
    );
    const after = new Map((await wholeBook(h, profileId)).map((r) => [r.strategyId, r.syncedAt]));
    for (const row of before) expect(after.get(row.strategyId)! > row.syncedAt).toBe(true);
    await h.desk.book.saveSettings({ autoRefreshMinutes: null });
  });
});
