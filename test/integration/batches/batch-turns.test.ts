import { describe, expect, it } from 'vitest';
import { executeToEnd, sendingTold } from '../../support/batches';
import { copiesBehindFakeForSuite } from '../../support/copies-behind-fake';
import { isExecute } from '../../support/fake-service';

const STRATEGIES = 4;

/**
 * An item's turn goes to the next as its 202 comes (SendSteps.answered, execution/execute.ts):
 * the next item's sent mark is written, and its request made, before the 202 is written, in the
 * same turn of the event loop. The service here (a fake in front of the sandbox, in this
 * process) reads the desk's store as each execute arrives, as a screen's request would.
 */
describe("a batch's turns", () => {
  const s = copiesBehindFakeForSuite(STRATEGIES);

  it('the next item is marked sent before the answer before it is written, never two sending at 1', async () => {
    const { id: modelId, rows } = await s.h.desk.models.create({
      name: 'Turns model',
      start: { kind: 'strategy', profileId: s.profileId, strategyId: s.sandbox.ids[0]! },
    });
    const moved = rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '19' } : r));
    const revisionId = (await s.h.desk.models.saveRevision({ modelId, rows: moved })).latest!.id;
    const batch = await s.h.desk.batches.review({
      profileId: s.profileId,
      revisionId,
      strategyIds: s.sandbox.ids,
    });
    expect(batch.items.map((i) => i.state)).toEqual(Array(STRATEGIES).fill('ready'));

    const items = () => s.h.desk.store.batches.items(batch.id);
    const nextArmed = (position: number) => {
      const next = items().find((i) => i.position > position);
      if (!next) return true;
      return (
        next.journalId !== null && s.h.desk.store.journal.get(next.journalId)?.state === 'pending'
      );
    };
    const sendingSeen: number[] = [];
    s.fake.answer(async (req, forward) => {
      if (!isExecute(req)) return forward();
      sendingSeen.push(items().filter((i) => i.state === 'sending').length);
      // The answer goes back once the next item is armed (journaled pending): its turn can come
      // as this answer does.
      const sending = items().find((i) => i.state === 'sending')!;
      await expect.poll(() => nextArmed(sending.position)).toBe(true);
      return forward();
    });
    const progress = s.h.events.length;
    const done = await executeToEnd(s.h, batch, { concurrency: 1 });
    s.fake.answer(null);
    expect(done.items.map((i) => i.state)).toEqual(Array(STRATEGIES).fill('accepted'));

    // Each item's sent entry comes before the answered entry of the item before it.
    const { activity } = s.h.desk.store;
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
    const told = sendingTold(s.h, batch.id, progress);
    expect(Math.max(...told)).toBeLessThanOrEqual(1);
  });
});
