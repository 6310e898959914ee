import Database from 'better-sqlite3';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { batchEnded } from '../../support/batches';
import { startFakeService, type FakeService } from '../../support/fake-service';
import { manyStrategiesSandbox, profileWithCopies } from '../../support/many-strategies';
import { executePath } from '../../support/sandbox-http';

const STRATEGIES = 6;

/**
 * What makes a batch's send fast keeps its guarantees (docs/batches.md, "Speed"), seen from the
 * service's side through a loopback stand-in in front of the sandbox: each request arrives only
 * after its journal entry is committed as sent, each strategy is read once at send time (its
 * ended known target's version only when the plan moved), and the versions are followed once
 * sending is over, not polled a hundred at a time in the middle of it.
 */
describe('a batch sent fast', () => {
  let sandbox: Awaited<ReturnType<typeof manyStrategiesSandbox>>;
  let fake: FakeService;
  let h: DeskHarness;
  let profileId: string;
  let revisionId: string;
  let model: { id: string; rows: { symbol: string; weight: string }[] };

  beforeAll(async () => {
    sandbox = await manyStrategiesSandbox(STRATEGIES, 0);
    fake = await startFakeService({ upstream: sandbox.baseUrl });
    h = await openDeskHarness({ stepMs: 0 });
    profileId = await profileWithCopies(h.desk, { ...sandbox, baseUrl: fake.baseUrl });
    model = await h.desk.models.create({
      name: 'Speed model',
      start: { kind: 'strategy', profileId, strategyId: sandbox.ids[0]! },
    });
    const rows = model.rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '17' } : r));
    revisionId = (await h.desk.models.saveRevision({ modelId: model.id, rows })).latest!.id;
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
    await sandbox?.close();
  });

  /** Sends a reviewed batch: the requests the service saw while it sent, once it ended. */
  async function send(batchId: string) {
    const from = fake.requests.length;
    await h.desk.batches.execute({
      batchId,
      unticked: [],
      acknowledged: [],
      stopAtFirstFailure: false,
    });
    await h.desk.batchFlow.sending(batchId);
    const duringSend = fake.requests.slice(from);
    await h.waitFor(batchEnded(batchId), 30_000);
    return duringSend;
  }

  it('journals each execution before it arrives, reads each strategy once, follows after sending', async () => {
    const batch = await h.desk.batches.review({ profileId, revisionId, strategyIds: sandbox.ids });
    expect(batch.items.map((i) => i.state)).toEqual(Array(STRATEGIES).fill('ready'));
    // What the journal held, in the desk's own file, when each execute request arrived.
    const db = new Database(h.desk.store.path, { readonly: true, fileMustExist: true });
    const journaledAs: (string | null)[] = [];
    // How many execute requests the service held at once, each answered after a while.
    let atService = 0;
    let mostAtService = 0;
    fake.answer(async (req, forward) => {
      if (req.method !== 'POST') return forward();
      const key = req.headers['idempotency-key'] as string;
      const row = db
        .prepare<[string], { state: string; attempts: number }>(
          'SELECT state, attempts FROM execution_journal WHERE idempotency_key = ?',
        )
        .get(key);
      journaledAs.push(row ? `${row.state} ${row.attempts}` : null);
      mostAtService = Math.max(mostAtService, ++atService);
      await new Promise((resolve) => setTimeout(resolve, 30));
      return forward().finally(() => atService--);
    });
    const from = fake.requests.length;
    const duringSend = await send(batch.id);
    fake.answer(null);
    db.close();

    const sent = h.desk.store.batches.items(batch.id);
    expect(sent.map((i) => i.state)).toEqual(Array(STRATEGIES).fill('accepted'));
    expect(journaledAs).toEqual(Array(STRATEGIES).fill('sent 1'));
    // The batch's concurrency (2) at the service, sent in the items' order.
    expect(mostAtService).toBe(2);
    const posted = duringSend.filter((r) => r.method === 'POST').map((r) => r.path);
    expect(posted).toEqual(sent.map((i) => executePath(i.strategyId)));
    for (const id of sandbox.ids) {
      const of = duringSend.filter((r) => r.path.includes(`/strategies/${id}`));
      const posts = of.filter((r) => r.method === 'POST');
      expect(posts.map((r) => r.path)).toEqual([executePath(id)]);
      // The strategy with its holdings, once: its known target's version had ended when the
      // review read it, and an ended version cannot change, so it is not read again.
      const gets = of.filter((r) => r.method === 'GET').map((r) => r.path.split('?')[0]);
      expect(gets).toEqual([`/api/v1/strategies/${id}`]);
    }
    // The new versions: not polled while sending, followed to their end after it.
    const created = sent.map((i) => i.versionId!);
    expect(duringSend.filter((r) => created.some((v) => r.path.includes(v)))).toEqual([]);
    const after = fake.requests.slice(from + duringSend.length);
    for (const v of created) expect(after.some((r) => r.path.includes(v))).toBe(true);
  });
  it("reads the known target's version again when the strategy moved since the review", async () => {
    // A revision the strategies do not hold yet (the test above executed the first).
    const rows = model.rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '18' } : r));
    const revised = (await h.desk.models.saveRevision({ modelId: model.id, rows })).latest!.id;
    const batch = await h.desk.batches.review({
      profileId,
      revisionId: revised,
      strategyIds: sandbox.ids,
    });
    const moved = sandbox.ids[1]!;
    const known = h.desk.store.versions.latestExecuted(profileId, moved)!;
    expect(known.status).toBe('COMPLETE');
    // Another desk changed what the strategy holds since the review: its first holding halved.
    fake.answer(async (req, forward) => {
      const answer = await forward();
      if (req.method !== 'GET' || req.path.split('?')[0] !== `/api/v1/strategies/${moved}`)
        return answer;
      const read = JSON.parse(answer.body.toString()) as {
        data: { positions: { quantity: string }[] };
      };
      const first = read.data.positions[0]!;
      first.quantity = new Decimal(first.quantity).div(2).toString();
      return { ...answer, body: Buffer.from(JSON.stringify(read)) };
    });
    const duringSend = await send(batch.id);
    fake.answer(null);

    const items = h.desk.store.batches.items(batch.id);
    const item = items.find((i) => i.strategyId === moved)!;
    expect(item.state).toBe('skipped');
    expect(item.reason).toMatch(/Changed since the review/);
    const of = duringSend.filter((r) => r.path.includes(`/strategies/${moved}`));
    expect(of.filter((r) => r.method === 'POST')).toEqual([]);
    // The plan moved, so the version is asked too: its answer is part of what the manager sees.
    expect(of.map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
      `GET /api/v1/strategies/${moved}`,
      `GET /api/v1/strategies/${moved}/versions/${known.id}`,
    ]);
    expect(items.filter((i) => i.state === 'accepted')).toHaveLength(STRATEGIES - 1);
  });
});
