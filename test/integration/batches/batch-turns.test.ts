import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { executeToEnd } from '../../support/batches';
import { isExecute, startFakeService, type FakeService } from '../../support/fake-service';
import { manyStrategiesSandbox, profileWithCopies } from '../../support/many-strategies';

const STRATEGIES = 4;

/**
 * An item's turn goes to the next as its 202 comes (SendSteps.answered, execution/execute.ts):
 * the next item's sent mark is written, and its request made, before the 202 is written, in the
 * same turn of the event loop. The service here (a fake in front of the sandbox, in this
 * process) reads the desk's store as each execute arrives, as a screen's request would.
 */
describe("a batch's turns", () => {
  let sandbox: Awaited<ReturnType<typeof manyStrategiesSandbox>>;
  let fake: FakeService;
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    sandbox = await manyStrategiesSandbox(STRATEGIES, 0);
    fake = await startFakeService({ upstream: sandbox.baseUrl });
    h = await openDeskHarness({ stepMs: 0 });
    profileId = await profileWithCopies(h.desk, { ...sandbox, baseUrl: fake.baseUrl });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
    await sandbox?.close();
  });

  it('the next item is marked sent before the answer before it is written, never two sending at 1', async () => {
    const { id: modelId, rows } = await h.desk.models.create({
      name: 'Turns model',
      start: { kind: 'strategy', profileId, strategyId: sandbox.ids[0]! },
    });
    const moved = rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '19' } : r));
    const revisionId = (await h.desk.models.saveRevision({ modelId, rows: moved })).latest!.id;
    const batch = await h.desk.batches.review({ profileId, revisionId, strategyIds: sandbox.ids });
    expect(batch.items.map((i) => i.state)).toEqual(Array(STRATEGIES).fill('ready'));

    const items = () => h.desk.store.batches.items(batch.id);
    const nextArmed = (position: number) => {
      const next = items().find((i) => i.position > position);
      if (!next) return true;
      return (
        next.journalId !== null && h.desk.store.journal.get(next.journalId)?.state === 'pending'
      );
    };
    const sendingSeen: number[] = [];
    fake.answer(async (req, forward) => {
      if (!isExecute(req)) return forward();
      sendingSeen.push(items().filter((i) => i.state === 'sending').length);
      // The answer goes back once the next item is armed (journaled pending): its turn can come
      // as this answer does.
      const sending = items().find((i) => i.state === 'sending')!;
      for (let waited = 0; !nextArmed(sending.position) && waited < 10_000; waited += 5)
        await new Promise((wait) => setTimeout(wait, 5));
      return forward();
    });
    const progress = h.events.length;
    const done = await executeToEnd(h, batch, { concurrency: 1 });
    fake.answer(null);
    expect(done.items.map((i) => i.state)).toEqual(Array(STRATEGIES).fill('accepted'));

    // Each item's sent entry comes before the answered entry of the item before it.
    const { activity } = h.desk.store;
    const seqs = done.items
      .sort((a, b) => a.position - b.position)
      .map((item) => {
        const sent = activity.executionSentSeq(item.journalId!)!;
        const answered = activity
          .referringTo(sent)
          .find((e) => e.kind === 'execution-answered')!.seq;
        return { sent, answered };
      });
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]!.sent).toBeLessThan(seqs[i - 1]!.answered);
    // And nothing ever read more items sending than the concurrency: not the service as each
    // execute arrived, not the screens told of the progress.
    expect(sendingSeen).toHaveLength(STRATEGIES);
    expect(Math.max(...sendingSeen)).toBe(1);
    const told = h.events
      .slice(progress)
      .flatMap((e) =>
        e.type === 'batch-progress' && e.batchId === batch.id
          ? [e.summary.counts.sending ?? 0]
          : [],
      );
    expect(Math.max(...told)).toBeLessThanOrEqual(1);
  });
});
