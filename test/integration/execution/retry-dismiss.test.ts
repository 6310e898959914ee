import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { DeskError } from '../../../shared/errors';
import { executeToEnd, itemOf } from '../../support/batches';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;

/** The refusal a call gave, or a failure when it gave none. */
async function refusal(call: () => unknown): Promise<DeskError> {
  const error = await Promise.resolve()
    .then(call)
    .then(
      () => expect.fail('expected a refusal'),
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(DeskError);
  return error as DeskError;
}

/**
 * Retry and dismiss are for an execution whose outcome is unknown: any other is refused with a
 * kind and the real reason, by the execution flow itself (not "internal"), and the desk's
 * handlers pass the same words on.
 */
describe('retry and dismiss of an execution not in doubt', () => {
  let h: DeskHarness;
  let acceptedId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    const profileId = (await h.desk.profiles.useSandbox({})).id;
    const model = await h.desk.models.create({
      name: 'Retry model',
      start: { kind: 'strategy', profileId, strategyId: CORE },
    });
    const rows = model.rows.map((r) => (r.symbol === 'SPY' ? { ...r, weight: '23' } : r));
    const revisionId = (await h.desk.models.saveRevision({ modelId: model.id, rows })).latest!.id;
    const batch = await h.desk.batches.review({ profileId, revisionId, strategyIds: [CORE] });
    acceptedId = itemOf(await executeToEnd(h, batch), CORE).journalId!;
    expect(h.desk.store.journal.get(acceptedId)?.state).toBe('accepted');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('an accepted execution: refused, saying it was accepted', async () => {
    const retried = await refusal(() => h.desk.recovery.retry(acceptedId));
    expect(retried.toData()).toEqual({
      kind: 'execution-blocked',
      message:
        'This execution was accepted by the service: only one whose outcome is unknown can be sent again.',
      details: { state: 'accepted' },
    });
    const dismissed = await refusal(() => h.desk.recovery.dismiss(acceptedId));
    expect(dismissed.message).toBe(
      'This execution was accepted by the service: only one whose outcome is unknown can be dismissed.',
    );
    // What a window is told: the same kind and words.
    const viaDesk = await refusal(() => h.desk.versions.retryExecution({ journalId: acceptedId }));
    expect(viaDesk.toData()).toEqual(retried.toData());
    expect(h.desk.store.journal.get(acceptedId)?.state).toBe('accepted');
  });

  it('an execution the app does not know: not found', async () => {
    const missing = randomUUID();
    for (const call of [
      () => h.desk.recovery.retry(missing),
      () => h.desk.recovery.dismiss(missing),
    ])
      expect((await refusal(call)).kind).toBe('not-found');
  });
});
