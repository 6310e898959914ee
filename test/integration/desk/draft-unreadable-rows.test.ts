import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDraftPaste } from '../../../shared/draft';
import { DeskError, isKind } from '../../../shared/views';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;

async function rejection(promise: Promise<unknown>): Promise<DeskError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeskError);
  return error as DeskError;
}

/**
 * A pasted line the app cannot read is a row of the draft: stored as typed in SQLite, read back
 * after a restart, and refused by the desk's own validation before anything is sent.
 */
describe('a draft row the app cannot read, through the desk, SQLite and a restart', () => {
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps "20,5" as the weight across a restart and refuses to execute it, sending nothing', async () => {
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'pasted',
      start: 'empty',
    });
    const pasted = parseDraftPaste('VOO\t45 %\nAGG\t20,5%\nTLT\t10\nBRK B\t1\nMSFT\n');
    if (!pasted.ok) throw new Error(pasted.error);
    const rows = pasted.rows.map(({ symbol, weight }) => ({ symbol, weight, locked: false }));
    const saved = await h.desk.drafts.saveRows({ draftId: draft.id, rows });
    expect(saved).toMatchObject({ rowCount: 5, valid: false });

    await h.restart();
    const reread = await h.desk.drafts.get({ draftId: draft.id });
    expect(reread.rows.map((r) => [r.symbol, r.weight])).toEqual([
      ['VOO', '45'],
      ['AGG', '20,5'],
      ['TLT', '10'],
      ['BRK B', '1'],
      ['MSFT', ''],
    ]);
    const [summary] = await h.desk.drafts.list({ profileId, strategyId: CORE });
    expect(summary).toMatchObject({ id: draft.id, valid: false });

    const accepted = async () =>
      (
        (await sandboxAdmin(h.sandbox()!.baseUrl, 'GET', '/sandbox/counters')) as {
          data: { executions_accepted: Record<string, number> };
        }
      ).data.executions_accepted;
    const before = await accepted();
    for (const attempt of [
      () => h.desk.versions.prepareExecute({ draftId: draft.id }),
      () => h.desk.versions.execute({ draftId: draft.id }),
    ]) {
      const error = await rejection(attempt());
      expect(error.kind).toBe('invalid-draft');
      expect(isKind(error, 'invalid-draft') && error.details?.messages).toEqual([
        'Row 2 (AGG): weight "20,5" uses a comma: use a dot (20.5)',
        'Row 4 (BRK B): "BRK B" has a space: a symbol is 1 to 20 letters, digits, dots, dashes or slashes (like BRK.B)',
        'Row 5 (MSFT): the weight is empty; enter a percentage from 0 to 98 (0 removes the position)',
      ]);
    }
    expect(await accepted()).toEqual(before);
    expect(await h.desk.versions.journal({ profileId })).toEqual([]);
  });
});
