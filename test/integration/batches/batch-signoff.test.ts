import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../../electron/host';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { createHttpBridge } from '../../../renderer/src/bridge/http-bridge';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import {
  acceptedAtService,
  acknowledgementsOf,
  batchEnded,
  gained,
  itemOf,
} from '../../support/batches';
import { call, executePath, target, tokenFor, waitForEnd } from '../../support/sandbox-http';
import { refusal } from '../../support/refusal';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const FRESH = DEMO_STRATEGY_IDS.freshStart;

/**
 * What the manager signs on a batch's review, held by the desk itself (docs/batches.md): an
 * acknowledgement counts only for the review and the warnings it was given on, even for a call
 * made straight to the desk or its HTTP route; one act may acknowledge a named list, recorded
 * with every id; a strategy whose last execution has an unknown outcome is excluded at review.
 * Through the real desk, the sandbox over HTTP, SQLite and the browser host.
 */
describe('signing off a batch', () => {
  let h: DeskHarness;
  let host: RunningHost;
  let staticDir: string;
  let profileId: string;
  let modelId: string;
  let baseUrl: string;
  let weight = 30;

  async function review(strategyIds: string[]) {
    weight -= 1;
    const model = await h.desk.models.get({ modelId });
    const rows = model.rows.map((r) => (r.symbol === 'SPY' ? { ...r, weight: String(weight) } : r));
    const revisionId = (await h.desk.models.saveRevision({ modelId, rows })).latest!.id;
    return h.desk.batches.review({ profileId, revisionId, strategyIds });
  }

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    baseUrl = h.sandbox()!.baseUrl;
    modelId = (
      await h.desk.models.create({
        name: 'Core model',
        start: { kind: 'strategy', profileId, strategyId: CORE },
      })
    ).id;
    staticDir = mkdtempSync(join(tmpdir(), 'desk-signoff-'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html>');
    host = await startHost({
      handlers: h.desk,
      subscribe: (listener) => h.desk.subscribe(listener),
      staticDir,
    });
    // Fresh Start is executed outside this app: its target is uncertain here.
    const token = await tokenFor(baseUrl, 'manager');
    const answer = await call(baseUrl, 'POST', executePath(FRESH), {
      token,
      body: target(['SPY', '40'], ['AAPL', '30']),
    });
    expect(answer.status).toBe(202);
    await waitForEnd(baseUrl, token, answer.headers.location as string);
  });
  afterAll(async () => {
    await host?.close();
    await h?.close();
    if (staticDir) rmSync(staticDir, { recursive: true, force: true });
  });

  it('refuses acknowledgements from another review or for other warnings, even on a direct call', async () => {
    const first = await review([CORE, FRESH]);
    const second = await review([CORE, FRESH]);
    expect(second.acknowledgementNeeded.map((a) => a.strategyName)).toEqual(['Fresh Start']);
    const [shown] = second.acknowledgementNeeded;
    expect(shown!.warnings).toEqual(itemOf(second, FRESH).review!.warnings);
    // The same strategy, the same words: another review's acknowledgement is another's.
    expect(first.acknowledgementNeeded[0]!.fingerprint).not.toBe(shown!.fingerprint);
    const before = await acceptedAtService(baseUrl);

    // Over the browser host's HTTP route, as any page could call it.
    const bridge = createHttpBridge({ origin: `http://127.0.0.1:${host.port}`, token: host.token });
    const fromOtherReview = await refusal(
      bridge.batches.execute({
        batchId: second.id,
        unticked: [],
        acknowledged: acknowledgementsOf(first),
        stopAtFirstFailure: false,
      }),
    );
    expect(fromOtherReview.kind).toBe('stale-not-acknowledged');
    expect(fromOtherReview.message).toMatch(
      /acknowledgement of Fresh Start was not given on this review .* Nothing was sent\./,
    );

    // Straight to the desk: warnings other than those shown, and a line that needs none.
    const otherWarnings = await refusal(
      h.desk.batches.execute({
        batchId: second.id,
        unticked: [],
        acknowledged: [{ strategyId: FRESH, fingerprint: 'a'.repeat(64) }],
        stopAtFirstFailure: false,
      }),
    );
    expect(otherWarnings.kind).toBe('stale-not-acknowledged');
    const notUncertain = await refusal(
      h.desk.batches.execute({
        batchId: second.id,
        unticked: [],
        acknowledged: [
          ...acknowledgementsOf(second),
          { strategyId: CORE, fingerprint: shown!.fingerprint },
        ],
        stopAtFirstFailure: false,
      }),
    );
    expect(notUncertain.message).toMatch(/acknowledgement of Core Equity was not given/);
    const none = await refusal(
      bridge.batches.execute({
        batchId: second.id,
        unticked: [],
        acknowledged: [],
        stopAtFirstFailure: false,
      }),
    );
    expect(none.message).toMatch(/The target of Fresh Start is uncertain/);
    expect((await h.desk.batches.get({ batchId: second.id })).state).toBe('reviewed');
    expect(gained(before, await acceptedAtService(baseUrl))).toEqual({});

    // This review's own acknowledgement goes, over the same route.
    const started = await bridge.batches.execute({
      batchId: second.id,
      unticked: [],
      acknowledged: acknowledgementsOf(second),
      stopAtFirstFailure: false,
    });
    expect(started.state).toBe('sending');
    await h.desk.batchFlow.sending(second.id);
    await h.waitFor(batchEnded(second.id), 30_000);
    await h.desk.batches.cancel({ batchId: first.id });
  });

  it('records one acknowledgement of a named list with every id', async () => {
    // Core Equity and Fresh Start are executed outside this app: both targets are uncertain.
    const token = await tokenFor(baseUrl, 'manager');
    for (const [id, body] of [
      [CORE, target(['SPY', '50'], ['MSFT', '20'])],
      [FRESH, target(['SPY', '30'], ['AAPL', '30'])],
    ] as const) {
      const answer = await call(baseUrl, 'POST', executePath(id), { token, body });
      expect(answer.status).toBe(202);
      await waitForEnd(baseUrl, token, answer.headers.location as string);
    }
    const batch = await review([CORE, FRESH]);
    expect(batch.acknowledgementNeeded.map((a) => a.strategyName)).toEqual([
      'Core Equity',
      'Fresh Start',
    ]);
    await h.desk.batches.execute({
      batchId: batch.id,
      unticked: [],
      acknowledged: acknowledgementsOf(batch),
      acknowledgedTogether: true,
      stopAtFirstFailure: false,
    });
    await h.desk.batchFlow.sending(batch.id);
    await h.waitFor(batchEnded(batch.id), 30_000);
    const seq = h.desk.store.batches.get(batch.id)!.reviewSeq!;
    expect(JSON.parse(h.desk.store.activity.get(seq)!.payload)).toMatchObject({
      acknowledgedTogether: true,
      acknowledged: [
        { strategyId: CORE, strategyName: 'Core Equity' },
        { strategyId: FRESH, strategyName: 'Fresh Start' },
      ],
    });
    const detail = await h.desk.activity.get({ seq });
    expect(detail.batchId).toBe(batch.id);
    expect(detail.facts).toContainEqual({
      label: 'Acknowledged',
      value: 'As one act: “I accept the uncertain predictions for these 2 strategies”',
    });
    expect(detail.tables.find((t) => t.title === 'Acknowledged as uncertain')?.rows).toEqual([
      ['Core Equity', CORE],
      ['Fresh Start', FRESH],
    ]);
  });

  it('excludes at review a strategy whose previous execution has an unknown outcome', async () => {
    // The service commits, then the connection drops before its answer arrives: unknown.
    await sandboxAdmin(baseUrl, 'PUT', '/sandbox/faults', { drop_after_commit_next: 1 });
    await expect(
      h.desk.execution.execute({
        profileId,
        strategyId: CORE,
        rows: [{ symbol: 'SPY', weight: '55' }],
        origin: { kind: 'batch', batchId: '00000000-0000-4000-8000-000000000002' },
      }),
    ).rejects.toMatchObject({ ambiguous: true });
    const [unknown] = h.desk.execution.inFlight(profileId).filter((e) => e.strategyId === CORE);
    expect(unknown).toMatchObject({ state: 'unknown' });

    const batch = await review([CORE, FRESH]);
    expect(itemOf(batch, CORE)).toMatchObject({ state: 'excluded', exclusion: 'blocked' });
    expect(itemOf(batch, CORE).reason).toBe(
      `The outcome of its previous execution is unknown (journal entry ${unknown!.id}): retry it with the same key or dismiss it from the strategy, then review again.`,
    );
    expect(batch.words).toBe('reviewed: 1 to send, 1 excluded');
  });
});
