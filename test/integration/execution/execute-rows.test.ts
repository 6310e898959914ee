import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { ExecutionBlockedError } from '../../../electron/core/execution/errors';
import type { ExecutionRequest } from '../../../electron/core/execution/request';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

/**
 * Rows that come from no stored draft (a batch's, one model for many strategies) go through the
 * one execution flow with every guarantee a draft's has: the plan reviewed is checked again at
 * send time, the request is journaled with its Idempotency-Key and claimed before it is sent,
 * its activity entry names the batch, and a retry after an unclear answer never executes twice.
 */

const CORE = DEMO_STRATEGY_IDS.coreEquity;

const ended = (versionId: string) => (e: DeskEvent) =>
  e.type === 'version-status-changed' && e.versionId === versionId && e.ended;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error,
  );
}

describe('executing rows from no draft (a batch), through the real desk, sandbox and SQLite', () => {
  let h: DeskHarness;
  let profileId: string;

  async function accepted(): Promise<number> {
    const counters = (await sandboxAdmin(h.sandbox()!.baseUrl, 'GET', '/sandbox/counters')) as {
      data: { executions_accepted: Record<string, number> };
    };
    return counters.data.executions_accepted[CORE] ?? 0;
  }

  /** The strategy's known target with its first symbol's weight set to `weight`. */
  async function rowsWith(weight: string): Promise<ExecutionRequest['rows']> {
    const strategy = await h.desk.strategies.get({ profileId, strategyId: CORE });
    const positions = strategy.currentTarget?.positions ?? [];
    expect(positions.length).toBeGreaterThan(1);
    return positions.map((p, i) => ({ symbol: p.symbol, weight: i === 0 ? weight : p.weight }));
  }

  /** The activity entry that journaled the execution, and the entries that answer it. */
  function activityOf(journalId: string) {
    const seq = h.desk.store.activity.executionSentSeq(journalId);
    expect(seq).not.toBeNull();
    const sent = h.desk.store.activity.get(seq!)!;
    return {
      sent: { kind: sent.kind, payload: JSON.parse(sent.payload) as Record<string, unknown> },
      answers: h.desk.store.activity.referringTo(seq!).map((row) => ({
        kind: row.kind,
        payload: JSON.parse(row.payload) as { result?: string },
      })),
    };
  }

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('journals, claims, records and sends the reviewed rows once, naming the batch', async () => {
    const batchId = randomUUID();
    const rows = await rowsWith('3');
    const target = { profileId, strategyId: CORE, rows };
    const review = await h.desk.execution.prepare(target);
    expect(review.earlierVersionId).toBeNull();
    const before = await accepted();

    const outcome = await h.desk.execution.execute({
      ...target,
      origin: { kind: 'batch', batchId },
      confirmation: { planKey: review.planKey, acknowledgedStale: true, againAfter: null },
    });

    expect(await accepted()).toBe(before + 1);
    const entry = h.desk.store.journal.get(outcome.entry.id)!;
    expect(entry).toMatchObject({
      state: 'accepted',
      draftId: null,
      versionId: outcome.version.id,
      attempts: 1,
    });
    expect(entry.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    // What was sent is what was reviewed: the rows, then what they leave out at 0.
    const body = JSON.parse(entry.requestBody) as { data: { positions: unknown[] } };
    expect(body.data.positions.slice(0, rows.length)).toEqual(rows);
    const activity = activityOf(entry.id);
    expect(activity.sent).toMatchObject({
      kind: 'execution-sent',
      payload: { journalId: entry.id, draftId: null, draftName: null, batchId, confirmed: true },
    });
    expect(activity.answers).toEqual([
      expect.objectContaining({
        kind: 'execution-answered',
        payload: expect.objectContaining({ result: 'accepted' }),
      }),
    ]);
    // The prediction recorded before sending was answered with the version.
    const prediction = await h.desk.versions.prediction({
      profileId,
      strategyId: CORE,
      versionId: outcome.version.id,
    });
    expect(prediction?.versionId).toBe(outcome.version.id);
    await h.waitFor(ended(outcome.version.id));
  });

  it('sends nothing when the strategy changed since the review (checked at send time)', async () => {
    const reviewed = { profileId, strategyId: CORE, rows: await rowsWith('4') };
    const review = await h.desk.execution.prepare(reviewed);
    // Meanwhile another execution changes the known target.
    const other = { profileId, strategyId: CORE, rows: await rowsWith('5') };
    const changed = await h.desk.execution.execute({
      ...other,
      origin: { kind: 'batch', batchId: randomUUID() },
    });
    await h.waitFor(ended(changed.version.id));
    const before = await accepted();
    const journaled = h.desk.store.journal.listForStrategy(profileId, CORE).length;

    const outdated = await rejection(
      h.desk.execution.execute({
        ...reviewed,
        origin: { kind: 'batch', batchId: randomUUID() },
        confirmation: { planKey: review.planKey, acknowledgedStale: true, againAfter: null },
      }),
    );

    expect(outdated).toBeInstanceOf(DeskError);
    expect((outdated as DeskError).kind).toBe('confirmation-outdated');
    expect(await accepted()).toBe(before);
    expect(h.desk.store.journal.listForStrategy(profileId, CORE)).toHaveLength(journaled);
  });

  it('an unclear answer blocks the strategy, and a retry with the same key never executes twice', async () => {
    const batchId = randomUUID();
    const request: ExecutionRequest = {
      profileId,
      strategyId: CORE,
      rows: await rowsWith('6'),
      origin: { kind: 'batch', batchId },
    };
    const before = await accepted();
    // The service commits, then the connection drops before its answer arrives.
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', {
      drop_after_commit_next: 1,
    });
    // Not through a handler: the service client's own failure, unclear whether the service acted.
    await expect(h.desk.execution.execute(request)).rejects.toMatchObject({ ambiguous: true });
    expect(await accepted()).toBe(before + 1);
    const [unknown] = h.desk.execution.inFlight(profileId);
    expect(unknown).toMatchObject({ state: 'unknown', draftId: null, strategyId: CORE });

    // The claim: nothing more of this strategy is sent while its outcome is unknown.
    await expect(h.desk.execution.execute(request)).rejects.toBeInstanceOf(ExecutionBlockedError);
    expect(await accepted()).toBe(before + 1);

    const retried = await h.desk.versions.retryExecution({ journalId: unknown!.id });
    expect(await accepted()).toBe(before + 1);
    const entry = h.desk.store.journal.get(unknown!.id)!;
    expect(entry).toMatchObject({ state: 'accepted', attempts: 2 });
    expect(entry.idempotencyKey).toBe(unknown!.idempotencyKey);
    expect(retried.version.id).toBe(entry.versionId);
    const kinds = activityOf(entry.id).answers.map((a) => [a.kind, a.payload.result ?? null]);
    expect(kinds).toEqual([
      ['execution-answered', 'unknown'],
      ['execution-retried', null],
      ['execution-answered', 'accepted'],
    ]);
    expect(activityOf(entry.id).sent.payload).toMatchObject({ batchId, draftId: null });
    await h.waitFor(ended(retried.version.id));
  });
});
