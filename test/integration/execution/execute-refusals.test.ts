import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskError } from '../../../shared/views';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const FRESH = DEMO_STRATEGY_IDS.freshStart;

describe('an execute refused with field errors only', () => {
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    await h.desk.strategies.add({ profileId, strategyId: FRESH });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('names the unknown symbols for the draft to mark, and journals a refusal', async () => {
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: FRESH,
      name: 'field errors',
      start: 'empty',
    });
    await h.desk.drafts.saveRows({
      draftId: draft.id,
      rows: [
        { symbol: 'FOO', weight: '10', locked: false },
        { symbol: 'BAR', weight: '5', locked: false },
      ],
    });
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', {
      reply_next: {
        status: 422,
        body: JSON.stringify({ errors: { positions: ['unknown symbols: FOO, BAR'] } }),
      },
    });
    const error = await h.desk.versions.execute({ draftId: draft.id }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DeskError);
    expect(error).toMatchObject({
      kind: 'unknown-symbols',
      status: 422,
      details: { unknownSymbols: ['FOO', 'BAR'], ambiguous: false },
    });
    // A definite refusal: nothing in flight, the strategy free for the corrected draft.
    expect(await h.desk.versions.journal({ profileId })).toEqual([]);
  });
});
