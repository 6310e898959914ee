import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { DeskError } from '../../../shared/errors';
import { acceptedAtService, batchEnded, gained, itemOf } from '../../support/batches';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;

/** The refusal a call gave, or a failure when it gave none. */
async function refusal(call: () => Promise<unknown>): Promise<DeskError> {
  const error = await call().then(
    () => expect.fail('expected a refusal'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeskError);
  return error as DeskError;
}

/**
 * While a batch of a profile sends, the profile is neither removed nor moved to another service
 * address: both are refused in words, and the batch goes on to its end at its own service. Once
 * sending is over, both are allowed again.
 */
describe('a profile whose batch is sending', () => {
  let h: DeskHarness;
  let profileId: string;
  let baseUrl: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    baseUrl = h.sandbox()!.baseUrl;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is not removed, nor its address changed, until sending is over', async () => {
    const model = await h.desk.models.create({
      name: 'Busy model',
      start: { kind: 'strategy', profileId, strategyId: CORE },
    });
    const rows = model.rows.map((r) => (r.symbol === 'SPY' ? { ...r, weight: '24' } : r));
    const revisionId = (await h.desk.models.saveRevision({ modelId: model.id, rows })).latest!.id;
    const batch = await h.desk.batches.review({ profileId, revisionId, strategyIds: [CORE] });
    const before = await acceptedAtService(baseUrl);
    const started = await h.desk.batches.execute({
      batchId: batch.id,
      unticked: [],
      acknowledged: [],
      stopAtFirstFailure: false,
    });
    expect(started.state).toBe('sending');

    const removed = await refusal(() => h.desk.profiles.remove({ profileId }));
    expect(removed.toData()).toEqual({
      kind: 'busy',
      message:
        'A batch of this profile is sending: remove it once sending is over, or cancel the batch first.',
    });
    const moved = await refusal(() =>
      h.desk.profiles.update({
        profileId,
        baseUrl: 'http://127.0.0.1:9/elsewhere',
        sendSecretToNewAddress: true,
      }),
    );
    expect(moved.kind).toBe('busy');
    expect(moved.message).toBe(
      'A batch of this profile is sending: change its service address once sending is over, or cancel the batch first.',
    );
    // Its name is not what the batch goes by: that still changes.
    expect((await h.desk.profiles.update({ profileId, name: 'Sandbox, renamed' })).name).toBe(
      'Sandbox, renamed',
    );

    await h.desk.batchFlow.sending(batch.id);
    await h.waitFor(batchEnded(batch.id), 30_000);
    const done = await h.desk.batches.get({ batchId: batch.id });
    expect(itemOf(done, CORE).state).toBe('accepted');
    expect(gained(before, await acceptedAtService(baseUrl))).toEqual({ [CORE]: 1 });
    expect(h.desk.store.profiles.get(profileId)?.baseUrl).toBe(baseUrl);

    // Sending over: removing it is allowed again.
    await h.desk.profiles.remove({ profileId });
    expect(h.desk.store.profiles.get(profileId)).toBeNull();
  });
});
