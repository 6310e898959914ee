import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { batchEnded, itemOf } from '../../support/batches';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const FRESH = DEMO_STRATEGY_IDS.freshStart;
const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;

/**
 * The store refusing a write while a batch sends (a real SQLite error, raised by a trigger put on
 * the desk's own file from another connection): the batch ends "stopped", never left "sending";
 * its unsent items are not sent and their journal entries withdrawn; the item whose outcome could
 * not be written reads unknown; the fault is in the log, and no promise is left unhandled (the
 * suites' setup fails the test on one).
 */
describe('a fault of the store while a batch sends', () => {
  let h: DeskHarness;
  let profileId: string;
  let db: Database.Database;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    db = new Database(h.desk.store.path, { fileMustExist: true });
  });
  afterAll(async () => {
    db?.close();
    await h?.close();
  });

  let modelId: string | undefined;
  let weight = 22;
  /** A review of a new revision (SPY at a weight not used before). */
  async function review(strategyIds: string[]) {
    modelId ??= (
      await h.desk.models.create({
        name: 'Fault model',
        start: { kind: 'strategy', profileId, strategyId: CORE },
      })
    ).id;
    weight -= 1;
    const model = await h.desk.models.get({ modelId });
    const rows = model.rows.map((r) => (r.symbol === 'SPY' ? { ...r, weight: String(weight) } : r));
    const revisionId = (await h.desk.models.saveRevision({ modelId, rows })).latest!.id;
    return h.desk.batches.review({ profileId, revisionId, strategyIds });
  }
  const execute = (batchId: string) =>
    h.desk.batches.execute({
      batchId,
      unticked: [],
      acknowledged: [],
      stopAtFirstFailure: false,
      concurrency: 1,
    });
  /**
   * Sends the batch while a trigger (`name`, on `table`, `when` its new row is so) refuses that
   * write, as a failing store refuses one; the trigger is gone afterwards.
   */
  async function sendRefusing(batchId: string, name: string, table: string, when: string) {
    db.exec(`CREATE TRIGGER ${name} BEFORE UPDATE OF state ON ${table} WHEN ${when}
      BEGIN SELECT RAISE(ABORT, 'simulated store failure'); END`);
    try {
      expect((await execute(batchId)).state).toBe('sending');
      await h.desk.batchFlow.sending(batchId);
    } finally {
      db.exec(`DROP TRIGGER ${name}`);
    }
  }

  it('ends the batch stopped, its unsent items withdrawn, the fault logged', async () => {
    const batch = await review([CORE, FRESH, DIVIDEND]);
    expect(batch.items.map((i) => [i.strategyName, i.state])).toEqual([
      ['Core Equity', 'ready'],
      ['Dividend Growth', 'ready'],
      ['Fresh Start', 'ready'],
    ]);
    // Core Equity's answer cannot be written: the store refuses, as a full or failing disk does.
    await sendRefusing(
      batch.id,
      'refuse_accepted',
      'batch_items',
      `NEW.state = 'accepted' AND NEW.strategy_id = '${CORE}'`,
    );
    const done = await h.desk.batches.get({ batchId: batch.id });
    expect(done.state).toBe('stopped');
    // Why it stopped is the batch's, in its words (the header) and its end's activity entry.
    expect(done.words).toMatch(
      /^stopped after [12] of 3 \(.*\): the app failed to record what it sent \(the log says how\)\. Review the rest again$/,
    );
    expect((await h.desk.batches.list({ profileId })).find((b) => b.id === batch.id)?.words).toBe(
      done.words,
    );
    // It ends once the versions sent have ended: its entry says why it stopped.
    await h.waitFor(batchEnded(batch.id));
    const [ended] = (
      await h.desk.activity.list({ profileId, kinds: ['batch-ended'], offset: 0, limit: 1 })
    ).entries;
    expect(ended!.summary).toBe(
      `Batch ended: ${(await h.desk.batches.get({ batchId: batch.id })).words}`,
    );
    expect(ended!.summary).toContain(
      ': the app failed to record what it sent (the log says how). Review the rest again',
    );
    const core = itemOf(done, CORE);
    expect(core.state).toBe('unknown');
    expect(core.reason).toMatch(/could not record how its send ended/);
    // The service took it: its execution in the strategy says so.
    expect(h.desk.store.journal.get(core.journalId!)?.state).toBe('accepted');
    // Dividend Growth took its turn as Core Equity's answer came, before the fault: it went its
    // way (the sandbox refuses it) or was not sent; Fresh Start, after it, was not sent.
    expect(['refused', 'not-sent']).toContain(itemOf(done, DIVIDEND).state);
    const fresh = itemOf(done, FRESH);
    expect(fresh.state).toBe('not-sent');
    expect(fresh.reason).toBe(
      'Not sent: sending stopped, the app failed to record it (the log says how). Review it again.',
    );
    // An entry journaled ahead of its turn was withdrawn, never marked sent.
    for (const item of done.items.filter((i) => i.state === 'not-sent' && i.journalId !== null))
      expect(h.desk.store.journal.get(item.journalId!)).toMatchObject({
        state: 'rejected',
        attempts: 0,
      });
    expect(h.desk.execution.inFlight(profileId)).toEqual([]);
    await h.desk.log.flush();
    const logged = readdirSync(h.desk.log.folder)
      .map((f) => readFileSync(join(h.desk.log.folder, f), 'utf8'))
      .join('\n');
    expect(logged).toContain('A batch stopped sending on a fault');
    expect(logged).toContain('simulated store failure');
    expect(logged).toContain(batch.id);
  });

  it('a store refusing the end of sending: stopped, not left "sending", nothing unhandled', async () => {
    const batch = await review([FRESH]);
    await sendRefusing(batch.id, 'refuse_sent', 'batches', `NEW.state = 'sent'`);
    const done = await h.desk.batches.get({ batchId: batch.id });
    expect(done.state).toBe('stopped');
    expect(done.words).toMatch(
      /^stopped after 1 of 1 \(.*\): the app failed to record what it sent \(the log says how\)\. Review the rest again$/,
    );
    expect(itemOf(done, FRESH).state).toBe('accepted');
  });

  it('a store refusing an item its turn: nothing of it sent, its entry withdrawn, the batch stopped', async () => {
    // Core Equity, whose version of the first test has ended: Dividend Growth, sent there as Core
    // Equity's answer came, was refused for the unexecuted version in its way, which a review
    // now excludes it for.
    const batch = await review([CORE]);
    expect(batch.items.map((i) => i.state)).toEqual(['ready']);
    // Its execution-sent entries so far.
    const sentEntriesOf = async (strategyId: string) =>
      (
        await h.desk.activity.list({
          profileId,
          kinds: ['execution-sent'],
          strategyId,
          offset: 0,
          limit: 50,
        })
      ).entries.length;
    const sentBefore = await sentEntriesOf(CORE);
    await sendRefusing(batch.id, 'refuse_turn', 'batch_items', `NEW.state = 'sending'`);
    const done = await h.desk.batches.get({ batchId: batch.id });
    expect(done.state).toBe('stopped');
    const item = itemOf(done, CORE);
    expect(item.state).toBe('not-sent');
    expect(item.reason).toBe(
      'Not sent: sending stopped, the app failed to record it (the log says how). Review it again.',
    );
    // Its entry was armed (pending, on disk) and withdrawn: never marked sent, never sent.
    expect(h.desk.store.journal.get(item.journalId!)).toMatchObject({
      state: 'rejected',
      attempts: 0,
    });
    expect(h.desk.execution.inFlight(profileId)).toEqual([]);
    expect(await sentEntriesOf(CORE)).toBe(sentBefore);
  });
});
