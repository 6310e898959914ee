import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from 'pg';
import type { DeskEvent } from '../../../shared/contract';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import {
  acceptedAtService,
  acknowledgementsOf,
  executeToEnd,
  gained,
  itemOf,
} from '../../support/batches';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';
import { refusal } from '../../support/refusal';

/**
 * A batch review submitted for approval, through the real parts: two desks (each its own SQLite
 * file and sandbox over HTTP) on one throwaway PostgreSQL. Alice reviews and submits on hers;
 * Bob sees it arrive on his by the team's notice and approves it with a note; Alice's desk sends
 * each item only because its content hashes to its line of that approval.
 */

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const FRESH = DEMO_STRATEGY_IDS.freshStart;
const team = useTeamDatabase();
const db = () => team.current!;

describe('a batch approved by another member, on two desks', () => {
  let alice: DeskHarness;
  let bob: DeskHarness;
  let aliceProfile: string;
  let bobProfile: string;
  let modelId: string;
  let owner: Client;

  /** A revision of the model: Core Equity's target with AAPL at `aapl` and JPM dropped. */
  async function revision(aapl: string): Promise<string> {
    const model = await alice.desk.models.get({ modelId });
    const rows = model.rows
      .filter((r) => r.symbol !== 'JPM')
      .map((r) => ({ symbol: r.symbol, weight: r.symbol === 'AAPL' ? aapl : r.weight }));
    return (await alice.desk.models.saveRevision({ modelId, rows, note: `AAPL ${aapl}` })).latest!
      .id;
  }
  const review = async (aapl: string) =>
    alice.desk.batches.review({
      profileId: aliceProfile,
      revisionId: await revision(aapl),
      strategyIds: [CORE, FRESH],
    });

  beforeAll(async () => {
    if (!team.current) return;
    // Alice may approve too: only her own submissions are refused her.
    await db().addMember('alice', ['drafter', 'trader', 'approver']);
    await db().addMember('bob', ['approver']);
    owner = await db().owner();
    alice = await openDeskHarness({ stepMs: 5 });
    bob = await openDeskHarness({ stepMs: 5 });
    aliceProfile = (await alice.desk.profiles.useSandbox({})).id;
    bobProfile = (await bob.desk.profiles.useSandbox({})).id;
    await db().join(alice.desk, aliceProfile, 'alice');
    await db().join(bob.desk, bobProfile, 'bob');
    // Each desk listens before anything is announced (a notice before its LISTEN is not heard).
    const listening = (e: DeskEvent) =>
      e.type === 'team-changed' && e.topic === 'connection' && e.connected;
    await Promise.all([alice.waitFor(listening), bob.waitFor(listening)]);
    modelId = (
      await alice.desk.models.create({
        name: 'Core model',
        start: { kind: 'strategy', profileId: aliceProfile, strategyId: CORE },
      })
    ).id;
  }, 60_000);
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
  });

  it('names every strategy’s content and the acknowledgements; each item sends only on its line', async () => {
    const baseUrl = alice.sandbox()!.baseUrl;
    const batch = await review('23');
    // Both are sent as reviewed: nothing uncertain to acknowledge (the demo's Fresh Start is empty).
    expect(batch.acknowledgementNeeded).toEqual([]);
    // An acknowledgement of another review's warnings is refused, as executing refuses it.
    const foreign = await refusal(
      alice.desk.team.submitBatch({
        batchId: batch.id,
        unticked: [],
        acknowledged: [{ strategyId: CORE, fingerprint: 'f'.repeat(64) }],
      }),
    );
    expect(foreign.kind).toBe('stale-not-acknowledged');

    const arrives = bob.waitFor((e) => e.type === 'team-changed' && e.topic === 'submission');
    const submitted = await alice.desk.team.submitBatch({
      batchId: batch.id,
      unticked: [],
      acknowledged: acknowledgementsOf(batch),
    });
    expect(submitted).toMatchObject({
      kind: 'batch',
      subject: batch.id,
      state: 'submitted',
      submittedBy: 'alice',
      title: 'Batch: Core model (revision 2) for Core Equity, Fresh Start',
    });
    const stored = await owner.query<{ content: string }>(
      'SELECT content FROM team.submissions WHERE id = $1',
      [submitted.id],
    );
    const content = JSON.parse(stored.rows[0]!.content) as {
      acknowledgements: unknown;
      lines: string[];
    };
    expect(content.acknowledgements).toEqual(acknowledgementsOf(batch));
    const lines = content.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.strategyId, l.acknowledged])).toEqual([
      [CORE, false],
      [FRESH, false],
    ]);
    expect(lines[0]).toMatchObject({
      planKey: alice.desk.store.batches.items(batch.id).find((i) => i.strategyId === CORE)!.planKey,
      base: {
        knownVersionId: expect.any(String),
        holdingsHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
      body: { data: { positions: expect.arrayContaining([{ symbol: 'AAPL', weight: '23' }]) } },
    });

    // Bob's desk hears of it and lists it; Alice cannot decide her own, though an approver.
    await arrives;
    const waiting = await bob.desk.team.submissions({ profileId: bobProfile });
    const seen = waiting.find((s) => s.id === submitted.id)!;
    expect(seen).toMatchObject({ kind: 'batch', state: 'submitted', positions: [] });
    // The approver reads each strategy it would send, with its weights.
    expect(seen.lines.map((l) => [l.strategyName, l.acknowledged])).toEqual([
      ['Core Equity', false],
      ['Fresh Start', false],
    ]);
    expect(seen.lines[0]!.positions).toContainEqual({ symbol: 'AAPL', weight: '23' });
    const own = await refusal(
      alice.desk.team.decide({
        profileId: aliceProfile,
        submissionId: submitted.id,
        approve: true,
        note: '',
      }),
    );
    expect(own.kind).toBe('team-refused');
    expect(own.message).toMatch(/alice submitted .* cannot approve or reject it/);
    const decided = alice.waitFor(
      (e) => e.type === 'team-changed' && e.topic === 'submission' && e.key === submitted.id,
    );
    await bob.desk.team.decide({
      profileId: bobProfile,
      submissionId: submitted.id,
      approve: true,
      note: 'both within the band',
    });
    await decided;
    expect(
      (await alice.desk.team.submissions({ profileId: aliceProfile })).find(
        (s) => s.id === submitted.id,
      ),
    ).toMatchObject({ state: 'approved', decidedBy: 'bob', note: 'both within the band' });

    // The approved review, executed as submitted: each item uses its line, once.
    const before = await acceptedAtService(baseUrl);
    const done = await executeToEnd(alice, batch);
    expect([itemOf(done, CORE).state, itemOf(done, FRESH).state]).toEqual(['accepted', 'accepted']);
    const sent = await acceptedAtService(baseUrl);
    expect(gained(before, sent)).toEqual({ [CORE]: 1, [FRESH]: 1 });

    // Another review of the same strategies (AAPL at 24): its items hash to no line; none sent.
    // (Made before the approved one was executed, it would have superseded it: only the newest
    // review of a strategy is the one to sign, approved or not.)
    const other = await review('24');
    const refused = await executeToEnd(alice, other);
    for (const id of [CORE, FRESH]) {
      expect(itemOf(refused, id).state).toBe('refused');
      expect(itemOf(refused, id).reason).toMatch(/no longer matches what would be sent/);
    }
    expect(gained(sent, await acceptedAtService(baseUrl))).toEqual({});
    const used = await owner.query(
      `SELECT s.state, s.used_by, array_agg(l.subject ORDER BY l.position) AS used
         FROM team.submissions s JOIN team.submission_lines l ON l.submission_id = s.id
        WHERE s.id = $1 AND l.used_at IS NOT NULL GROUP BY 1, 2`,
      [submitted.id],
    );
    expect(used.rows[0]).toEqual({ state: 'used', used_by: 'alice', used: [CORE, FRESH] });
  }, 120_000);
});
