import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS as DEMO } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import { executeToEnd } from '../../support/batches';
import { wholeBook } from '../../support/book';

const CORE = DEMO.coreEquity;

/**
 * "Refresh failed" is true of the strategy's last read, whoever read it: the book's refresh, a
 * confirmation's fresh read, a batch's review and send reads, the read when a rebalance ends.
 * Through the real desk, the built-in sandbox over HTTP (its fail_strategies fault) and SQLite.
 */
describe('a strategy’s "Refresh failed"', () => {
  let h: DeskHarness;
  let profileId: string;
  let base: string;

  const failure = async () =>
    (await wholeBook(h, profileId)).find((r) => r.strategyId === CORE)!.refreshFailure;
  const failReads = () =>
    sandboxAdmin(base, 'PUT', '/sandbox/faults', { fail_strategies: [CORE], fail_status: 503 });
  const answerReads = () => sandboxAdmin(base, 'DELETE', '/sandbox/faults');
  /** The book's own refresh of Core Equity fails: the row says so. */
  async function failedRefresh() {
    await failReads();
    await h.desk.strategies.refresh({ profileId, strategyId: CORE }).catch(() => undefined);
    await answerReads();
    expect(await failure()).toMatchObject({ kind: 'server', status: 503 });
  }

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    base = h.sandbox()!.baseUrl;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('ends with a confirmation’s successful read, and is set by a confirmation’s failed one', async () => {
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'Core as it is',
      start: 'target',
    });
    await failedRefresh();
    await h.desk.versions.prepareExecute({ draftId: draft.id });
    expect(await failure()).toBeNull();

    await failReads();
    await expect(h.desk.versions.prepareExecute({ draftId: draft.id })).rejects.toMatchObject({
      kind: 'server',
    });
    await answerReads();
    expect(await failure()).toMatchObject({ kind: 'server', status: 503 });
    await h.desk.strategies.refresh({ profileId, strategyId: CORE });
    expect(await failure()).toBeNull();
  });

  it('ends with a batch’s review read, and is set when that read fails', async () => {
    const model = await h.desk.models.create({
      name: 'Core, less JPM',
      start: { kind: 'strategy', profileId, strategyId: CORE },
    });
    const rows = model.rows.filter((r) => r.symbol !== 'JPM');
    const saved = await h.desk.models.saveRevision({ modelId: model.id, rows, note: 'no JPM' });
    const revisionId = saved.latest!.id;

    await failReads();
    const unread = await h.desk.batches.review({ profileId, revisionId, strategyIds: [CORE] });
    await answerReads();
    expect(unread.items[0]).toMatchObject({ state: 'excluded', exclusion: 'unreadable' });
    expect(await failure()).toMatchObject({ kind: 'server', status: 503 });

    const batch = await h.desk.batches.review({ profileId, revisionId, strategyIds: [CORE] });
    expect(batch.items[0]?.state).toBe('ready');
    expect(await failure()).toBeNull();

    // Failed again before sending: the send's read, then the read when the rebalance ends, store
    // answers, and the flag goes with them.
    await failedRefresh();
    const done = await executeToEnd(h, batch);
    expect(done.items[0]?.versionStatus).toBe('COMPLETE');
    expect(await failure()).toBeNull();
  });
});
