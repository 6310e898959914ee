import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOOK_STRATEGY_IDS as BOOK } from '../../../electron/sandbox';
import { DeskError } from '../../../shared/errors';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

/**
 * A model started from a strategy's known target the app flags "changed elsewhere" (the holdings
 * do not fit it): refused in words until the manager accepts the old target knowingly. Through
 * the real desk, the built-in sandbox over HTTP (the demo model's followers) and SQLite.
 */
describe('a model from an uncertain known target', () => {
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5, demoModel: true });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is refused, naming why, read again or not; made only when the manager accepts it', async () => {
    const start = { kind: 'strategy' as const, profileId, strategyId: BOOK.globalGrowth };
    const models = (await h.desk.models.list({})).length;
    const refused = await h.desk.models.create({ name: 'From Global', start }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(DeskError);
    expect(refused).toMatchObject({ kind: 'stale-not-acknowledged' });
    expect((refused as DeskError).message).toMatch(/Global Growth.*may be out of date.*TSLA/);
    expect((refused as DeskError).message).toMatch(/Read the strategy first/);
    expect(await h.desk.models.list({})).toHaveLength(models);

    // Read again, it still holds TSLA, which its known target does not: still refused.
    await h.desk.strategies.refresh({ profileId, strategyId: BOOK.globalGrowth });
    await expect(h.desk.models.create({ name: 'From Global', start })).rejects.toMatchObject({
      kind: 'stale-not-acknowledged',
    });

    const made = await h.desk.models.create({
      name: 'From Global',
      start: { ...start, acceptUncertain: true },
    });
    expect(made.latest?.note).toMatch(/flagged changed elsewhere when copied/);
    // A known target the holdings fit is copied as before, with no word needed.
    const fits = await h.desk.models.create({
      name: 'From Bond Ladder',
      start: { kind: 'strategy', profileId, strategyId: BOOK.bondLadder },
    });
    expect(fits.latest?.note).not.toMatch(/changed elsewhere/);
  });
});
