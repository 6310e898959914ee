import Database from 'better-sqlite3';
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { clearAfterRun, killAndRestart } from '../../support/batch-kill';
import { acknowledgementsOf } from '../../support/batches';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import { runSeed, seeded } from '../../support/seeded';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const FRESH = DEMO_STRATEGY_IDS.freshStart;
const RUNS = 3;

/**
 * A batch killed mid-send and the app started again, through real processes, the sandbox and
 * SQLite: what was sent is settled from the journal and followed, nothing is executed twice, and
 * nothing unsent goes out after the restart without a new review. The kill moments are seeded:
 * BATCH_SEED=<the printed seed> replays a failure.
 */
describe('a batch killed mid-send, then the app restarted', () => {
  let h: DeskHarness;
  let profileId: string;
  let modelId: string;
  const seed = runSeed();
  const random = seeded(seed);

  beforeAll(async () => {
    console.log(`batch kill runs: BATCH_SEED=${seed}`);
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    modelId = (
      await h.desk.models.create({
        name: 'Core model',
        start: { kind: 'strategy', profileId, strategyId: CORE },
      })
    ).id;
    // Slow enough answers that a kill lands before, during or after each send.
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 60 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it(`never sends twice and never sends the unsent after a restart (${RUNS} seeded runs)`, async () => {
    for (let run = 0; run < RUNS; run++) {
      const model = await h.desk.models.get({ modelId });
      const rows = model.rows.map((r) =>
        r.symbol === 'SPY' ? { ...r, weight: String(20 - run - 1) } : r,
      );
      const revisionId = (await h.desk.models.saveRevision({ modelId, rows })).latest!.id;
      const delayMs = Math.floor(random() * 700);
      const result = await killAndRestart(h, profileId, revisionId, [CORE, FRESH], delayMs, {
        concurrency: 1,
      });
      const context = `run ${run}, BATCH_SEED=${seed}, killed after ${delayMs} ms: ${JSON.stringify(result)}`;
      expect(result.batchId, context).not.toBeNull();
      expect(result.doubles, context).toBe(0);
      expect(result.unsentSentAfterRestart, context).toBe(0);
      const batch = await h.desk.batches.get({ batchId: result.batchId! });
      expect(batch.counts.ready + batch.counts.sending, context).toBe(0);
      if (result.killedAfterMs !== null && batch.state === 'stopped') {
        // With how the ones sent ended, when any was ("(1 outcome unknown)"), and why it stopped.
        const how = result.sent > 0 ? ' \\(\\d+ [^)]+\\)' : '';
        expect(batch.words, context).toMatch(
          new RegExp(
            `^stopped after ${result.sent} of 2${how}: the app stopped while it was sending. Review the rest again$`,
          ),
        );
      }
      // A review made before the restart is never sent after it either.
      await clearAfterRun(h, profileId);
    }
  });

  /** The data folder's database, read beside the child that writes it. */
  const database = (readonly: boolean) =>
    new Database(join(h.dataDir, 'strategy-desk.sqlite'), { readonly, fileMustExist: true });

  /**
   * A batch of two sent one at a time, killed while the first is at the service and the second
   * is journaled (pending, on disk) waiting for its turn; `restarted`: the computer's start is
   * changed before the app starts again, as a power cut would have it.
   */
  async function killWhileWaitingForTurn(restarted: boolean) {
    const model = await h.desk.models.get({ modelId });
    const rows = model.rows.map((r) =>
      r.symbol === 'SPY' ? { ...r, weight: restarted ? '13' : '14' } : r,
    );
    const revisionId = (await h.desk.models.saveRevision({ modelId, rows })).latest!.id;
    // The first send stays at the service long enough to see the second waiting.
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 1500 });
    const watcher = { db: null as Database.Database | null };
    const inFlight = () => {
      watcher.db ??= database(true);
      const states = watcher.db
        .prepare<[], { state: string }>(
          `SELECT state FROM execution_journal WHERE state IN ('pending', 'sent') ORDER BY state`,
        )
        .all()
        .map((r) => r.state);
      return states.join() === 'pending,sent';
    };
    const result = await killAndRestart(h, profileId, revisionId, [CORE, FRESH], 0, {
      concurrency: 1,
      killWhen: inFlight,
      beforeRestart: () => {
        watcher.db?.close();
        if (!restarted) return;
        const db = database(false);
        db.prepare(
          `UPDATE settings SET value = 'id:another-start' WHERE key = 'computer-start'`,
        ).run();
        db.close();
      },
    });
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 60 });
    const items = h.desk.store.batches.items(result.batchId!);
    // Turns go in the items' order: the second was waiting.
    const waiting = items[1]!;
    const entry = h.desk.store.journal.get(waiting.journalId!)!;
    return { result, items, waiting, entry };
  }

  it('an execution journaled and waiting for its turn at a kill is withdrawn: never sent', async () => {
    const { result, items, waiting, entry } = await killWhileWaitingForTurn(false);
    const context = JSON.stringify({ result, items: items.map((i) => [i.position, i.state]) });
    expect(result.killedAfterMs, context).not.toBeNull();
    expect(
      items.map((i) => i.state),
      context,
    ).toEqual(['unknown', 'not-sent']);
    expect(waiting.reason).toMatch(/nothing was sent/);
    expect(entry).toMatchObject({ state: 'rejected', attempts: 0 });
    expect(entry.error).toMatch(/stopped before sending this execution; nothing was sent/);
    // Never marked sent, so no execution-sent entry in the activity log.
    expect(h.desk.store.activity.executionSentSeq(entry.id)).toBeNull();
    expect(result.doubles).toBe(0);
    expect(result.unsentSentAfterRestart).toBe(0);
    await clearAfterRun(h, profileId);
  });

  it('after the computer restarted, the one waiting may have left: unknown, never re-sent', async () => {
    const { result, items, entry } = await killWhileWaitingForTurn(true);
    const context = JSON.stringify({ result, items: items.map((i) => [i.position, i.state]) });
    expect(
      items.map((i) => i.state),
      context,
    ).toEqual(['unknown', 'unknown']);
    expect(entry).toMatchObject({ state: 'unknown', attempts: 0 });
    expect(entry.error).toMatch(/may or may not have left/);
    expect(result.doubles).toBe(0);
    expect(result.unsentSentAfterRestart).toBe(0);
    await clearAfterRun(h, profileId);
  });

  it('an item waiting to be sent again after a 429 when the app stopped is not sent: nothing was executed', async () => {
    const model = await h.desk.models.get({ modelId });
    const rows = model.rows.map((r) => (r.symbol === 'SPY' ? { ...r, weight: '12' } : r));
    const revisionId = (await h.desk.models.saveRevision({ modelId, rows })).latest!.id;
    // The first execute is answered 429 (Retry-After: 1): the item waits to be sent again.
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', {
      fail_next: 1,
      fail_next_method: 'POST',
      fail_status: 429,
    });
    const batch = await h.desk.batches.review({ profileId, revisionId, strategyIds: [CORE] });
    expect(batch.items.map((i) => i.state)).toEqual(['ready']);
    // (Its target may read uncertain after the kill runs before: acknowledged as the review asks.)
    await h.desk.batches.execute({
      batchId: batch.id,
      unticked: [],
      acknowledged: acknowledgementsOf(batch),
      stopAtFirstFailure: false,
      concurrency: 1,
    });
    // The moment of the stop: the item ready again, naming its entry refused by the 429. Polled
    // as "item state/entry state", so a wait that never ends says where the item went instead.
    const itemAndEntry = () =>
      h.desk.store.batches
        .items(batch.id)
        .map((i) => `${i.state}/${i.journalId && h.desk.store.journal.get(i.journalId)?.state}`)
        .join(', ');
    await expect.poll(itemAndEntry, { timeout: 10_000, interval: 5 }).toBe('ready/rejected');
    // Stopped there, as a crash would leave it (the file as it was, then the app started again).
    const file = join(h.dataDir, 'strategy-desk.sqlite');
    const copy = `${file}.at-stop`;
    const db = database(false);
    await db.backup(copy);
    db.close();
    await h.desk.batchFlow.sending(batch.id);
    await h.desk.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    renameSync(copy, file);
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', { fail_next: 0 });
    await h.restart();
    const [item] = h.desk.store.batches.items(batch.id);
    expect(item!.state, JSON.stringify(item)).toBe('not-sent');
    expect(item!.reason).toMatch(/waited to send it again after the service answered 429/);
    await clearAfterRun(h, profileId);
  });

  it('a review made before a restart expires: executing it sends nothing', async () => {
    const model = await h.desk.models.get({ modelId });
    const rows = model.rows.map((r) => (r.symbol === 'SPY' ? { ...r, weight: '10' } : r));
    const revisionId = (await h.desk.models.saveRevision({ modelId, rows })).latest!.id;
    const batch = await h.desk.batches.review({ profileId, revisionId, strategyIds: [CORE] });
    await h.restart();
    const expired = await h.desk.batches.get({ batchId: batch.id });
    expect(expired.state).toBe('expired');
    await expect(
      h.desk.batches.execute({
        batchId: batch.id,
        unticked: [],
        acknowledged: [],
        stopAtFirstFailure: false,
      }),
    ).rejects.toMatchObject({ kind: 'confirmation-outdated' });
  });
});
