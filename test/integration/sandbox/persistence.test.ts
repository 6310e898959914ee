import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEMO_STRATEGY_IDS as IDS,
  DEMO_VERSION_IDS as VIDS,
} from '../../../electron/sandbox/demo-data';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox/index';
import { sandboxStateFile } from '../../../electron/sandbox/persistence';
import { Decimal } from '../../../shared/decimal';
import {
  admin,
  call,
  executePath,
  target,
  tokenFor,
  versionPath,
  waitForEnd,
} from '../../support/sandbox-http';

/**
 * The embedded sandbox keeps its state in a JSON file: a version executed
 * before a restart is still there afterwards, and its rebalance goes on.
 */

let dir: string;
let statePath: string;
let problems: string[];
const running: RunningSandbox[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strategy-desk-sandbox-state-'));
  statePath = join(dir, 'sandbox-state.json');
  problems = [];
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function start(stepMs: number): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    stepMs,
    statePath,
    onStateProblem: (m) => problems.push(m),
  });
  running.push(sandbox);
  return sandbox;
}

async function holdingsOf(url: string, token: string, id: string) {
  const answer = await call(url, 'GET', `/api/v1/strategies/${id}?include=positions`, { token });
  expect(answer.status).toBe(200);
  return new Map(
    (answer.json.data.positions as { symbol: string; quantity: string }[]).map((p) => [
      p.symbol,
      p.quantity,
    ]),
  );
}

function savedFile() {
  return sandboxStateFile.parse(JSON.parse(readFileSync(statePath, 'utf8')));
}

describe('sandbox state file', () => {
  it('a rebalance cut off by close goes on after a restart from the file, and holdings follow', async () => {
    // Slow steps: the close comes while the version is still PENDING or CREATING_ORDERS.
    const first = await start(400);
    let token = await tokenFor(first.baseUrl, 'manager');
    const before = await holdingsOf(first.baseUrl, token, IDS.coreEquity);
    expect(before.has('XOM')).toBe(false);
    const body = target(['AAPL', '20'], ['MSFT', '10'], ['XOM', '12.5']);
    const key = 'persist-key-1';
    const executed = await call(first.baseUrl, 'POST', executePath(IDS.coreEquity), {
      token,
      body,
      headers: { 'idempotency-key': key },
    });
    expect(executed.status).toBe(202);
    const versionId = executed.json.data.id as string;
    await first.close();

    // Saved on close: the version is there, not ended, with its orders; the counter kept.
    const saved = savedFile();
    const core = saved.strategies.find((s) => s.id === IDS.coreEquity)!;
    const version = core.versions.find((v) => v.id === versionId)!;
    expect(['PENDING', 'CREATING_ORDERS']).toContain(version.status);
    expect(version.orders.length).toBeGreaterThan(0);
    expect(saved.executionsAccepted[IDS.coreEquity]).toBe(1);
    expect(saved.idempotency).toHaveLength(1);
    expect(JSON.stringify(saved)).not.toMatch(/access_token|latency_ms/);

    // A new sandbox (new port, no tokens) from the file: the version completes.
    const second = await start(10);
    expect(second.baseUrl).not.toBe(first.baseUrl);
    token = await tokenFor(second.baseUrl, 'manager');
    const ended = await waitForEnd(
      second.baseUrl,
      token,
      versionPath(IDS.coreEquity, versionId, 'orders'),
    );
    expect(ended.json.data.status).toBe('COMPLETE');
    const after = await holdingsOf(second.baseUrl, token, IDS.coreEquity);
    const xomFill = (ended.json.data.orders as { symbol: string; filled_quantity: string }[]).find(
      (o) => o.symbol === 'XOM',
    )!;
    expect(after.get('XOM')).toBe(xomFill.filled_quantity);
    expect(new Decimal(after.get('XOM')!).gt(0)).toBe(true);
    expect(after.has('NVDA')).toBe(false);

    // The idempotency memory survived: the same key and body replay the same version.
    const replay = await call(second.baseUrl, 'POST', executePath(IDS.coreEquity), {
      token,
      body,
      headers: { 'idempotency-key': key },
    });
    expect(replay.status).toBe(202);
    expect(replay.json.data.id).toBe(versionId);
    const counters = await admin(second.baseUrl, 'GET', '/sandbox/counters');
    expect(counters.json.data.executions_accepted[IDS.coreEquity]).toBe(1);

    // The end of the rebalance was saved too (debounced), without a close.
    await expect
      .poll(
        () =>
          savedFile()
            .strategies.find((s) => s.id === IDS.coreEquity)!
            .versions.find((v) => v.id === versionId)!.status,
        { timeout: 3000 },
      )
      .toBe('COMPLETE');
    expect(problems).toEqual([]);
  });

  it('a deleted unexecuted version stays deleted after a restart', async () => {
    const first = await start(10);
    const token = await tokenFor(first.baseUrl, 'manager');
    const path = versionPath(IDS.dividendGrowth, VIDS.dividendGrowthScheduled);
    expect((await call(first.baseUrl, 'DELETE', path, { token })).status).toBe(204);
    await first.close();
    const second = await start(10);
    const again = await tokenFor(second.baseUrl, 'manager');
    expect((await call(second.baseUrl, 'GET', path, { token: again })).status).toBe(404);
  });

  it.each([
    ['not JSON', '{"format": 1, "strategies": ['],
    ['JSON of the wrong shape', JSON.stringify({ format: 1, strategies: [{ id: 'x' }] })],
  ])('a file that is %s is set aside and reported; the demo data is served', async (_, text) => {
    writeFileSync(statePath, text);
    const sandbox = await start(10);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('could not be read');
    expect(problems[0]).toContain('starts from the demo data');
    const aside = readdirSync(dir).filter((f) => f.startsWith('sandbox-state.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(problems[0]).toContain(aside[0]);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(text);
    expect(existsSync(statePath)).toBe(false);

    const token = await tokenFor(sandbox.baseUrl, 'manager');
    const demo = await call(
      sandbox.baseUrl,
      'GET',
      versionPath(IDS.dividendGrowth, VIDS.dividendGrowthScheduled),
      { token },
    );
    expect(demo.json.data.status).toBe('SCHEDULED');
    // The next change writes a valid file again; the set-aside copy is left alone.
    await admin(
      sandbox.baseUrl,
      'POST',
      `/sandbox/strategies/${IDS.freshStart}/unexecuted-versions`,
      {},
    );
    await sandbox.close();
    expect(savedFile().strategies.find((s) => s.id === IDS.freshStart)!.versions).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(text);
  });

  it('reset puts the file back to the demo data', async () => {
    const first = await start(0);
    const token = await tokenFor(first.baseUrl, 'manager');
    const executed = await call(first.baseUrl, 'POST', executePath(IDS.freshStart), {
      token,
      body: target(['SPY', '50']),
    });
    expect(executed.status).toBe(202);
    await waitForEnd(first.baseUrl, token, executed.headers.location as string);
    await first.close();
    expect(savedFile().strategies.find((s) => s.id === IDS.freshStart)!.versions).toHaveLength(1);

    const second = await start(0);
    expect((await admin(second.baseUrl, 'POST', '/sandbox/reset')).status).toBe(204);
    await expect
      .poll(() => savedFile().strategies.find((s) => s.id === IDS.freshStart)!.versions.length, {
        timeout: 3000,
      })
      .toBe(0);
    expect(savedFile().executionsAccepted).toEqual({});
    expect(savedFile().idempotency).toEqual([]);
    await second.close();

    const third = await start(0);
    const again = await tokenFor(third.baseUrl, 'manager');
    const gone = await call(
      third.baseUrl,
      'GET',
      versionPath(IDS.freshStart, executed.json.data.id as string),
      { token: again },
    );
    expect(gone.status).toBe(404);
  });

  it('without statePath nothing is written and every start is the demo data', async () => {
    const a = await startSandbox({ stepMs: 0 });
    running.push(a);
    const token = await tokenFor(a.baseUrl, 'manager');
    const path = versionPath(IDS.dividendGrowth, VIDS.dividendGrowthScheduled);
    expect((await call(a.baseUrl, 'DELETE', path, { token })).status).toBe(204);
    await a.close();
    const b = await startSandbox({ stepMs: 0 });
    running.push(b);
    const again = await tokenFor(b.baseUrl, 'manager');
    expect((await call(b.baseUrl, 'GET', path, { token: again })).status).toBe(200);
    expect(readdirSync(dir)).toEqual([]);
  });
});
