import { describe, expect, it } from 'vitest';
import type { ExecuteRequest, Version } from '../../../../shared/domain/resources';
import { afterEach } from 'vitest';
import {
  ExecutionBlockedError,
  ExecutionJournal,
  type ExecutePort,
} from '../../../../electron/core/execution/execute';
import { openTemp } from '../../store/fixtures';

let PID = '';
const SID = '22222222-2222-4222-8222-222222222222';
const body: ExecuteRequest = { data: { positions: [{ symbol: 'AAPL', weight: '10' }] } };

class Ambiguous extends Error {}

function version(): Version {
  return {
    id: '33333333-3333-4333-8333-333333333333',
    strategy_id: SID,
    cash_weight: '90',
    old_cash_weight: '100',
    scheduled_for: null,
    status: 'PENDING',
    executed_at: '2026-11-22T10:00:00.000000Z',
    inserted_at: '2026-11-22T10:00:00.000000Z',
  };
}

/** A fake service that remembers keys like the real one: the same key never executes twice. */
function service(failures: ('ambiguous-after-commit' | 'ambiguous-before-commit' | 'reject')[]) {
  const accepted = new Set<string>();
  const sent: string[] = [];
  const client: ExecutePort = {
    async executeVersion(_sid, _body, key) {
      sent.push(key);
      const failure = failures.shift();
      if (failure === 'reject') throw new Error('422 unknown symbols');
      if (failure === 'ambiguous-before-commit') throw new Ambiguous('timeout');
      accepted.add(key);
      if (failure === 'ambiguous-after-commit') throw new Ambiguous('socket reset');
      return { version: version(), location: '/loc' };
    },
  };
  return { client, accepted, sent };
}

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

/** A real store in a temp folder; the journal is its repository. */
function setup() {
  const temp = openTemp();
  cleanup.push(temp.close);
  PID = temp.store.profiles.create({
    name: 'Test',
    baseUrl: 'http://127.0.0.1:1',
    clientId: 'c',
    environment: 'sandbox',
  }).id;
  const journal = temp.store.journal;
  const saved: string[] = [];
  const tracked: string[] = [];
  const executions = new ExecutionJournal({
    journal,
    saveAcceptedVersion: (_e, v) => saved.push(v.id),
    startTracking: (_e, v) => tracked.push(v.id),
    isAmbiguous: (e) => e instanceof Ambiguous,
    describe: (e) => (e as Error).message,
  });
  return { journal, executions, saved, tracked };
}

const request = () => ({ profileId: PID, strategyId: SID, draftId: null, body });

describe('ExecutionJournal', () => {
  it('journals before sending, then stores, tracks and marks the entry accepted', async () => {
    const { journal, executions, saved, tracked } = setup();
    const svc = service([]);
    const outcome = await executions.execute(svc.client, request());
    expect(outcome.entry.state).toBe('accepted');
    expect(journal.get(outcome.entry.id)).toMatchObject({
      state: 'accepted',
      attempts: 1,
      location: '/loc',
    });
    expect(JSON.parse(journal.get(outcome.entry.id)!.requestBody)).toEqual(body);
    expect(saved).toEqual([outcome.version.id]);
    expect(tracked).toEqual([outcome.version.id]);
  });

  it('marks an ambiguous failure unknown and retries only with the same key', async () => {
    const { journal, executions } = setup();
    const svc = service(['ambiguous-after-commit']);
    await expect(executions.execute(svc.client, request())).rejects.toBeInstanceOf(Ambiguous);
    const [entry] = executions.inFlight(PID);
    expect(entry!.state).toBe('unknown');
    // A new execution of the same strategy is refused while the outcome is unknown.
    await expect(executions.execute(svc.client, request())).rejects.toBeInstanceOf(
      ExecutionBlockedError,
    );
    const outcome = await executions.retry(svc.client, entry!.id);
    expect(outcome.entry.state).toBe('accepted');
    expect(new Set(svc.sent)).toEqual(new Set([entry!.idempotencyKey]));
    expect(svc.accepted.size).toBe(1);
    expect(journal.get(entry!.id)!.attempts).toBe(2);
  });

  it('marks a definite refusal rejected, and never lets it be re-sent', async () => {
    const { journal, executions } = setup();
    const svc = service(['reject']);
    await expect(executions.execute(svc.client, request())).rejects.toThrow('422');
    const entry = journal.listForStrategy(PID, SID)[0]!;
    expect(entry.state).toBe('rejected');
    await expect(executions.retry(svc.client, entry.id)).rejects.toThrow(
      /only an execution whose outcome is unknown/,
    );
    expect(svc.sent).toHaveLength(1);
  });

  it('refuses a second click while the first request is on the wire', async () => {
    const { executions } = setup();
    let release: () => void = () => {};
    const slow: ExecutePort = {
      executeVersion: () =>
        new Promise(
          (resolve) => (release = () => resolve({ version: version(), location: '/loc' })),
        ),
    };
    const first = executions.execute(slow, request());
    await expect(executions.execute(slow, request())).rejects.toBeInstanceOf(ExecutionBlockedError);
    release();
    await expect(first).resolves.toMatchObject({ location: '/loc' });
  });

  it('at start-up turns entries cut off mid-flight into unknown ones, without sending anything', () => {
    const { journal, executions } = setup();
    const never = journal.create({
      profileId: PID,
      strategyId: SID,
      idempotencyKey: 'k1',
      requestBody: '{}',
    });
    // Another strategy's: one strategy has at most one execution in flight.
    const onWire = journal.create({
      profileId: PID,
      strategyId: '44444444-4444-4444-8444-444444444444',
      idempotencyKey: 'k2',
      requestBody: '{}',
    });
    journal.markSent(onWire.id);
    const left = executions.reconcileAtStartup();
    expect(left.map((e) => [e.id, e.state])).toEqual([
      [never.id, 'unknown'],
      [onWire.id, 'unknown'],
    ]);
    expect(journal.get(never.id)!.error).toMatch(/nothing was sent/);
    expect(journal.get(onWire.id)!.error).toMatch(/may or may not have been accepted/);
    executions.dismiss(never.id);
    expect(executions.inFlight(PID).map((e) => e.id)).toEqual([onWire.id]);
  });
});
