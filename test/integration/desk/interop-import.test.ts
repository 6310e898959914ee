import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../../electron/sandbox';
import { DeskError } from '../../../shared/views';
import { jsonAnswer, type SeenRequest } from '../../support/fake-service';
import { openInteropDesk, row, type InteropDesk } from '../../support/interop-desk';

/**
 * Importing a version by id when its strategy is not in the profile yet: the manager expects the
 * strategy to come with it when the service lets the app read it, and a plain refusal otherwise.
 * Through the real desk, SQLite and the fake service in front of the sandbox.
 */
let d: InteropDesk | undefined;
afterEach(async () => {
  await d?.close();
  d = undefined;
});

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const EXECUTED = DEMO_VERSION_IDS.coreEquityExecuted;

const isStrategyRead = (req: SeenRequest) =>
  req.method === 'GET' && /\/strategies\/[^/]+(\?|$)/.test(req.path);

describe('importing a version of a strategy not in the profile', () => {
  it('adds the strategy with it (recorded as added), then the manager executes from that target to COMPLETE', async () => {
    d = await openInteropDesk();
    const { profileId } = d;
    const desk = d.harness.desk;
    const imported = await desk.versions.import({
      profileId,
      strategyId: CORE,
      versionId: EXECUTED,
    });
    expect(imported.id).toBe(EXECUTED);
    expect(imported.origin).toBe('imported');
    const strategy = await desk.strategies.get({ profileId, strategyId: CORE });
    expect(strategy.name).toBe('Core Equity');
    expect(strategy.holdings.length).toBeGreaterThan(0);
    expect((await desk.strategies.list({ profileId })).map((s) => s.id)).toEqual([CORE]);
    const { entries } = await desk.activity.list({ profileId, offset: 0, limit: 20 });
    expect(entries.map((e) => e.kind)).toEqual(
      expect.arrayContaining(['strategy-added', 'version-imported']),
    );

    // The imported version is the known target: a draft from it executes to the end.
    const draft = await desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'd',
      start: 'target',
    });
    expect(draft.rows.length).toBeGreaterThan(0);
    const rows = draft.rows.map((r) => (r.symbol === 'AAPL' ? row('AAPL', '13') : r));
    await desk.drafts.saveRows({ draftId: draft.id, rows });
    const { version } = await desk.versions.execute({ draftId: draft.id });
    expect((await d.ended(version.id, CORE)).status).toBe('COMPLETE');
  });

  it('the strategy cannot be read (no scope): refused in plain words, nothing stored', async () => {
    d = await openInteropDesk();
    const { profileId } = d;
    d.fake.answer(async (req, forward) =>
      isStrategyRead(req)
        ? jsonAnswer(
            403,
            { error: 'insufficient_scope', error_description: 'needs strategies:read' },
            { 'www-authenticate': 'Bearer error="insufficient_scope", scope="strategies:read"' },
          )
        : forward(),
    );
    const error = await d.harness.desk.versions
      .import({ profileId, strategyId: CORE, versionId: EXECUTED })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskError);
    expect((error as DeskError).kind).toBe('forbidden');
    expect((error as DeskError).message).toMatch(/strategy is not in this profile/);
    expect((error as DeskError).message).toMatch(/strategies:read/);
    expect((error as DeskError).message).not.toMatch(/Nothing was sent/);
    expect(await d.harness.desk.strategies.list({ profileId })).toEqual([]);
    expect(await d.harness.desk.versions.list({ profileId, strategyId: CORE })).toEqual([]);
  });
});
