import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from 'pg';
import type { DeskEvent } from '../../../shared/contract';
import type { BatchView } from '../../../shared/batches/views';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import {
  acceptedAtService,
  acknowledgementsOf,
  batchEnded,
  executeToEnd,
  gained,
} from '../../support/batches';
import { manyStrategiesSandbox, profileWithCopies } from '../../support/many-strategies';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';

/**
 * The team store stopped while a batch sends, then started again (docs/team.md, "Offline and
 * faults"), through the real parts: a desk on its SQLite file, a sandbox over HTTP answering
 * slowly, the throwaway PostgreSQL stopped by pg_ctl once the first claim was taken. The
 * team's policy asks no approval (`none`): the claim alone is at stake. Every item ends true:
 * sent once, or refused in words as needing the team store, never both; the desk listens again
 * by itself; the claims of what was sent are given back once the store is there; a second batch
 * of the refused strategies sends each once.
 */

const STRATEGIES = 8;
const team = useTeamDatabase();
let sandbox: Awaited<ReturnType<typeof manyStrategiesSandbox>> | undefined;
let h: DeskHarness | undefined;
let profileId: string;
let revisionId: string;
let owner: Client;

beforeAll(async () => {
  const db = team.current;
  if (!db) return;
  await db.addMember('alice', ['drafter', 'trader']);
  owner = await db.owner();
  await owner.query("SELECT team.set_policy('none', interval '24 hours', 'owner')");
  sandbox = await manyStrategiesSandbox(STRATEGIES, 5);
  h = await openDeskHarness({ stepMs: 0 });
  profileId = await profileWithCopies(h.desk, sandbox);
  await db.join(h.desk, profileId, 'alice');
  // The model: the first copy's target with one weight raised, so every strategy moves.
  const model = await h.desk.models.create({
    name: 'Restart model',
    start: { kind: 'strategy', profileId, strategyId: sandbox.ids[0]! },
  });
  const rows = model.rows.map((r, i) =>
    i === 0 ? { ...r, weight: `${Number(r.weight) + 1}` } : r,
  );
  revisionId = (await h.desk.models.saveRevision({ modelId: model.id, rows })).latest!.id;
}, 120_000);
afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

const claimsHeld = async () =>
  Number(
    (await (await team.current!.owner()).query('SELECT count(*) AS n FROM team.claims')).rows[0].n,
  );
const needsTheStore =
  /The team store at .* cannot be reached .*needed to execute as a member of the team/;

describe('the team store stopped mid-batch and started again', () => {
  it('every item sent once or refused in words, nothing doubled; the desk reconnects; the rest sent once', async () => {
    const db = team.current!;
    const desk = h!.desk;
    const before = await acceptedAtService(sandbox!.baseUrl);
    const batch = await desk.batches.review({ profileId, revisionId, strategyIds: sandbox!.ids });
    // Each request waits at the service: the batch is still sending when the store stops.
    await sandboxAdmin(sandbox!.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 1000 });
    const mark = h!.events.length;
    const after = (e: DeskEvent) => h!.events.indexOf(e) >= mark;
    const lost = h!.waitFor(
      (e) => after(e) && e.type === 'team-changed' && e.topic === 'connection' && !e.connected,
      30_000,
    );
    await desk.batches.execute({
      batchId: batch.id,
      unticked: [],
      acknowledged: acknowledgementsOf(batch),
      stopAtFirstFailure: false,
    });
    // The first items under way take their claims (the team's log announces each), then read
    // at the service, slowly; the store stops then, long before the later items' turn.
    await h!.waitFor((e) => after(e) && e.type === 'team-changed' && e.topic === 'entry', 30_000);
    await db.cluster.stop('fast');
    await lost;
    await desk.batchFlow.sending(batch.id);
    await sandboxAdmin(sandbox!.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 0 });
    await h!.waitFor(batchEnded(batch.id), 30_000);
    const ended: BatchView = await desk.batches.get({ batchId: batch.id });
    const sent = gained(before, await acceptedAtService(sandbox!.baseUrl));

    // Each item true: accepted and sent once, or refused as needing the team store and not sent.
    const accepted = ended.items.filter((i) => i.state === 'accepted').map((i) => i.strategyId);
    const refused = ended.items.filter((i) => i.state === 'refused');
    expect(accepted.length + refused.length).toBe(STRATEGIES);
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const item of refused) expect(item.reason).toMatch(needsTheStore);
    expect(sent).toEqual(Object.fromEntries(accepted.map((id) => [id, 1])));

    // Started again: the desk listens again by itself, and the claims of what was sent leave.
    const back = h!.waitFor(
      (e) => after(e) && e.type === 'team-changed' && e.topic === 'connection' && e.connected,
      60_000,
    );
    await db.cluster.start();
    await back;
    await expect.poll(claimsHeld, { timeout: 30_000, interval: 200 }).toBe(0);

    // The rest, reviewed and sent again: each once; nothing sent before is sent again.
    const rest = refused.map((i) => i.strategyId);
    const again = await desk.batches.review({ profileId, revisionId, strategyIds: rest });
    const second = await executeToEnd(h!, again);
    expect(second.items.map((i) => [i.strategyId, i.state])).toEqual(
      rest.map((id) => [id, 'accepted']),
    );
    const total = gained(before, await acceptedAtService(sandbox!.baseUrl));
    expect(total).toEqual(Object.fromEntries(sandbox!.ids.map((id) => [id, 1])));
    await expect.poll(claimsHeld, { timeout: 30_000, interval: 200 }).toBe(0);
    console.log(`store restart: ${accepted.length} sent before the stop, ${rest.length} after`);
  }, 180_000);
});
