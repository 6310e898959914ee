import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from 'pg';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';

/**
 * A claim whose release the team store could not take (stopped while the rebalance ran) leaves
 * as soon as the store answers again, when the desk's listening connection is back, not after
 * the retry's wait (docs/team.md). The wait is made ten minutes here, so only the connection
 * coming back can release it within the test.
 */

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const team = useTeamDatabase();
let h: DeskHarness | undefined;
let profileId: string;
let owner: Client;

beforeAll(async () => {
  const db = team.current;
  if (!db) return;
  await db.addMember('alice', ['drafter', 'trader']);
  owner = await db.owner();
  await owner.query("SELECT team.set_policy('none', interval '24 hours', 'owner')");
  // Three rebalance steps of a second: the store is stopped before the rebalance ends.
  h = await openDeskHarness({
    stepMs: 1000,
    claimReleaseRetry: { firstMs: 600_000, maxMs: 600_000 },
  });
  profileId = (await h.desk.profiles.useSandbox({})).id;
  await db.join(h.desk, profileId, 'alice');
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('a claim released when the team store is back', () => {
  it('is given back once the listening connection returns, with what was found', async () => {
    const desk = h!.desk;
    const draft = await desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'Tilt',
      start: 'target',
    });
    await desk.drafts.saveRows({
      draftId: draft.id,
      rows: draft.rows.map((r, i) => ({ ...r, weight: i === 0 ? '3' : r.weight })),
    });
    const preview = await desk.versions.prepareExecute({ draftId: draft.id });
    const outcome = await desk.versions.execute({
      draftId: draft.id,
      confirmation: { planKey: preview.planKey, acknowledgedStale: true, againAfter: null },
    });
    const versionId = desk.store.journal.get(outcome.journalId)!.versionId!;
    const held = async () =>
      (await owner.query('SELECT strategy_id FROM team.claims')).rows.map((r) => r.strategy_id);
    expect(await held()).toEqual([CORE]);

    await team.current!.cluster.stop('fast');
    await h!.waitFor(
      (e) =>
        e.type === 'version-status-changed' &&
        e.versionId === versionId &&
        ['COMPLETE', 'FAILED', 'CANCELLED'].includes(e.status ?? ''),
      30_000,
    );
    // The release was tried with the store away, and waits.
    await expect
      .poll(() => desk.teamClaims.pendingReleases(profileId), { timeout: 10_000 })
      .toBe(1);

    await team.current!.cluster.start();
    owner = await team.current!.owner();
    await expect.poll(held, { timeout: 20_000 }).toEqual([]);
    expect(desk.teamClaims.pendingReleases(profileId)).toBe(0);
    const { rows } = await owner.query<{ payload: string }>(
      "SELECT payload FROM team.activity WHERE kind = 'claim.released'",
    );
    expect(rows.map((r) => JSON.parse(r.payload).found)).toEqual([
      expect.stringMatching(new RegExp(`^ended: version ${versionId} `)),
    ]);
  }, 60_000);
});
