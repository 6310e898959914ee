import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookJob } from '../../../shared/book/views';
import type { DeskEvent } from '../../../shared/contract';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import { addMany, createStrategies, jobEnded, wholeBook } from '../../support/book';
import { call, executePath, target, tokenFor, waitForEnd } from '../../support/sandbox-http';

/**
 * Refresh all through the profile's one queue, against the sandbox over HTTP and SQLite: 429s
 * with Retry-After slow it down, failures land on their rows, a service gone away ends it with
 * each failure reported, and a cancel leaves every strategy as it was or fully refreshed.
 */

const jobEvents = (h: DeskHarness, jobId: string): BookJob[] =>
  h.events.flatMap((e: DeskEvent) =>
    e.type === 'book-job-changed' && e.job.id === jobId ? [e.job] : [],
  );

/** Executes a target on the sandbox directly (elsewhere than this app) and waits for its end. */
async function executeElsewhere(base: string, token: string, strategyId: string): Promise<void> {
  const answer = await call(base, 'POST', executePath(strategyId), {
    token,
    body: target(['KO', '50']),
  });
  expect(answer.status).toBe(202);
  await waitForEnd(base, token, answer.headers.location as string);
}

describe('refreshing the book', () => {
  let h: DeskHarness;
  let profileId: string;
  let base: string;
  let ids: string[];

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    base = h.sandbox()!.baseUrl;
    ids = (await createStrategies(base, { count: 30, holdings: 4 })).ids;
    await addMany(h, profileId, ids);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('slows down on 429s, honours Retry-After, and refreshes every strategy', async () => {
    const before = new Map((await wholeBook(h, profileId)).map((r) => [r.strategyId, r.syncedAt]));
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', {
      api_rate_limit: { limit: 6, window_s: 1 },
    });
    const started = Date.now();
    const job = await h.desk.book.refresh({ profileId, selection: { kind: 'all' } });
    expect(job).toMatchObject({ kind: 'refresh', state: 'running', total: 33, concurrency: 4 });
    const ended = await jobEnded(h, job.id);
    await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
    expect(ended).toMatchObject({ state: 'finished', total: 33, done: 33, failed: 0 });
    // 33 reads at 6 a second take at least five seconds of windows.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
    const seen = jobEvents(h, job.id);
    expect(seen.some((j) => j.waitingUntil !== null)).toBe(true);
    expect(Math.min(...seen.map((j) => j.concurrency))).toBeLessThan(4);
    for (const row of await wholeBook(h, profileId)) {
      expect(row.syncedAt > before.get(row.strategyId)!).toBe(true);
      expect(row.flags).not.toContain('refresh-failed');
    }
  });

  it('finishes the others when some fail, with each failure on its row', async () => {
    const failing = [ids[3]!, ids[17]!];
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', {
      fail_strategies: failing,
      fail_status: 500,
    });
    const job = await h.desk.book.refresh({ profileId, selection: { kind: 'all' } });
    const ended = await jobEnded(h, job.id);
    await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
    expect(ended).toMatchObject({ state: 'finished', done: 33, failed: 2 });
    const rows = await wholeBook(h, profileId);
    const failed = rows.filter((r) => r.flags.includes('refresh-failed'));
    expect(failed.map((r) => r.strategyId).sort()).toEqual([...failing].sort());
    for (const row of failed) {
      expect(row.refreshFailure).toMatchObject({ kind: 'server', status: 500 });
      expect(row.refreshFailure!.message).toMatch(/service/i);
    }
    const summary = await h.desk.book.summary({ profileId });
    expect(summary.counts.flags['refresh-failed']).toBe(2);

    // The next read that succeeds clears the flag, with the data that replaces it.
    const again = await h.desk.book.refresh({
      profileId,
      selection: { kind: 'ids', strategyIds: failing },
    });
    expect((await jobEnded(h, again.id)).failed).toBe(0);
    expect((await h.desk.book.summary({ profileId })).counts.flags['refresh-failed']).toBe(0);
  });

  it('a slow service: every strategy still read, the screen’s calls answered meanwhile', async () => {
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', { latency_ms: 150 });
    const job = await h.desk.book.refresh({ profileId, selection: { kind: 'tag', tag: 'none' } });
    expect(job).toMatchObject({ state: 'finished', total: 0 });
    const all = await h.desk.book.refresh({ profileId, selection: { kind: 'all' } });
    // While it runs, the book answers from the cache at once.
    const t = Date.now();
    const page = await h.desk.book.rows({
      profileId,
      query: { search: '', flags: [], tag: null, sort: 'synced', descending: true },
      offset: 0,
      limit: 50,
    });
    expect(Date.now() - t).toBeLessThan(150);
    expect(page.total).toBe(33);
    const ended = await jobEnded(h, all.id);
    await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
    expect(ended).toMatchObject({ state: 'finished', done: 33, failed: 0 });
  });

  it('cancelled, leaves every strategy as it was or fully refreshed', async () => {
    // The service changes every strategy's holdings; the app still holds the old ones.
    const old = new Map(
      ids.map((id) => [id, h.desk.store.strategies.get(profileId, id)!] as const),
    );
    const token = await tokenFor(base, 'manager');
    for (const id of ids) await executeElsewhere(base, token, id);
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', { latency_ms: 80 });
    const job = await h.desk.book.refresh({
      profileId,
      selection: { kind: 'ids', strategyIds: ids },
    });
    await h.waitFor((e) => e.type === 'book-job-changed' && e.job.id === job.id && e.job.done >= 6);
    await h.desk.book.cancelRefresh({ profileId });
    const ended = await jobEnded(h, job.id);
    await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
    expect(ended.state).toBe('cancelled');
    let refreshed = 0;
    for (const id of ids) {
      const now = h.desk.store.strategies.get(profileId, id)!;
      const was = old.get(id)!;
      const symbols = (s: typeof now) => s.positions!.map((p) => p.symbol).sort();
      if (now.synced_at === was.synced_at) {
        // As it was: the same holdings, the same update time.
        expect(symbols(now)).toEqual(symbols(was));
        expect(now.updated_at).toBe(was.updated_at);
      } else {
        // Fully refreshed: the service's holdings now, all of them.
        refreshed++;
        expect(symbols(now)).toEqual(['KO']);
        expect(now.updated_at > was.updated_at).toBe(true);
      }
    }
    expect(refreshed).toBeGreaterThanOrEqual(6);
    expect(refreshed).toBeLessThan(ids.length);
    expect(refreshed).toBe(ended.done);
    // The status bar's figures never read as all synced: the unread keep the oldest read.
    const status = await h.desk.app.status({});
    const unread = ids.filter(
      (id) => h.desk.store.strategies.get(profileId, id)!.synced_at === old.get(id)!.synced_at,
    );
    const oldestUnread = unread.map((id) => old.get(id)!.synced_at).sort()[0]!;
    expect(status.oldestSyncAt! <= oldestUnread).toBe(true);
    expect(status.oldestSyncAt! < status.lastSyncAt!).toBe(true);
  });

  it('meeting a service gone away, ends with each strategy’s failure reported', async () => {
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', { latency_ms: 50 });
    const job = await h.desk.book.refresh({ profileId, selection: { kind: 'all' } });
    await h.waitFor((e) => e.type === 'book-job-changed' && e.job.id === job.id && e.job.done >= 3);
    await h.sandbox()!.close();
    const ended = await jobEnded(h, job.id, 90_000);
    expect(ended.state).toBe('finished');
    expect(ended.done).toBe(33);
    expect(ended.failed).toBeGreaterThan(0);
    const rows = await wholeBook(h, profileId);
    const failed = rows.filter((r) => r.flags.includes('refresh-failed'));
    expect(failed).toHaveLength(ended.failed);
    for (const row of failed) expect(['network', 'timeout']).toContain(row.refreshFailure!.kind);
  }, 120_000);
});
