import { afterEach, describe, expect, it } from 'vitest';
import type { ExecuteRequest, Version } from '../../../../shared/domain/resources';
import { ServiceError } from '../../../../electron/core/api';
import { ExecutionBlockedError } from '../../../../electron/core/execution/errors';
import { Execution, type ExecutePort } from '../../../../electron/core/execution/execute';
import { Recovery } from '../../../../electron/core/execution/recovery';
import type { Connections } from '../../../../electron/core/profiles/connections';
import type { Store } from '../../../../electron/core/store';
import { openTemp, seedStrategy, strategyResponse } from '../../../support/store-fixtures';

let PID = '';
const SID = '22222222-2222-4222-8222-222222222222';
const body: ExecuteRequest = { data: { positions: [{ symbol: 'AAPL', weight: '10' }] } };

/** A failure that leaves it unknown whether the service acted (a timeout, a reset). */
class Ambiguous extends ServiceError {
  constructor(message: string) {
    super({ kind: 'timeout', message, ambiguous: true });
  }
}

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
      if (failure === 'reject')
        throw new ServiceError({ kind: 'unknown-symbols', message: '422 unknown symbols' });
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

/**
 * A real store in a temp folder holding the strategy (nothing held) and a draft of AAPL at 10;
 * the service is `client`. What executing stores and follows is noted in `saved` and `tracked`.
 */
function setup(client: ExecutePort, options: { durable?: () => Promise<void> } = {}) {
  const temp = openTemp();
  cleanup.push(temp.close);
  PID = seedStrategy(temp.store, strategyResponse({ id: SID, positions: [] })).profileId;
  const journal = temp.store.journal;
  const saved: string[] = [];
  const tracked: string[] = [];
  const versions = temp.store.versions;
  const store: Store = {
    ...temp.store,
    ...(options.durable && { durable: options.durable }),
    versions: {
      ...versions,
      recordRead: (profileId, v, options) => {
        saved.push(v.id);
        versions.recordRead(profileId, v, options);
      },
    },
  };
  const connections: Pick<Connections, 'call'> = {
    call: (_profileId, work) => work(client as Parameters<typeof work>[0]),
  };
  const executions = new Execution({
    store,
    connections,
    tracker: { track: (v) => tracked.push(v.versionId) },
    emit: () => undefined,
    now: () => new Date().toISOString(),
  });
  const draftId = temp.store.drafts.create({
    profileId: PID,
    strategyId: SID,
    name: 'Ten in AAPL',
    rows: [{ symbol: 'AAPL', weight: '10', locked: false }],
  }).id;
  const recovery = new Recovery(store, executions);
  return { journal, executions, recovery, saved, tracked, draftId };
}

describe('Execution', () => {
  it('journals before sending, then stores, tracks and marks the entry accepted', async () => {
    const svc = service([]);
    const { journal, executions, saved, tracked, draftId } = setup(svc.client);
    const outcome = await executions.executeDraft(draftId);
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
    const svc = service(['ambiguous-after-commit']);
    const { journal, executions, recovery, draftId } = setup(svc.client);
    await expect(executions.executeDraft(draftId)).rejects.toBeInstanceOf(Ambiguous);
    const [entry] = executions.inFlight(PID);
    expect(entry!.state).toBe('unknown');
    // A new execution of the same strategy is refused while the outcome is unknown.
    await expect(executions.executeDraft(draftId)).rejects.toBeInstanceOf(ExecutionBlockedError);
    const outcome = await recovery.retry(entry!.id);
    expect(outcome.entry.state).toBe('accepted');
    expect(new Set(svc.sent)).toEqual(new Set([entry!.idempotencyKey]));
    expect(svc.accepted.size).toBe(1);
    expect(journal.get(entry!.id)!.attempts).toBe(2);
  });

  it('marks a definite refusal rejected, and never lets it be re-sent', async () => {
    const svc = service(['reject']);
    const { journal, executions, recovery, draftId } = setup(svc.client);
    await expect(executions.executeDraft(draftId)).rejects.toThrow('422');
    const entry = journal.listForStrategy(PID, SID)[0]!;
    expect(entry.state).toBe('rejected');
    await expect(recovery.retry(entry.id)).rejects.toMatchObject({
      kind: 'execution-blocked',
      message:
        'This execution was refused by the service, or never sent: only one whose outcome is unknown can be sent again.',
    });
    expect(svc.sent).toHaveLength(1);
  });

  it('sends nothing when the journal entry cannot be made durable, and says so', async () => {
    const svc = service([]);
    const { journal, executions, draftId } = setup(svc.client, {
      durable: () => Promise.reject(new Error('EIO: the disk refused the fsync')),
    });
    await expect(executions.executeDraft(draftId)).rejects.toThrow(/EIO/);
    expect(svc.sent).toHaveLength(0);
    const [entry] = journal.listForStrategy(PID, SID);
    expect(entry).toMatchObject({ state: 'rejected' });
    expect(entry!.error).toMatch(/nothing was sent/);
  });

  it('refuses a second click while the first request is on the wire', async () => {
    // Released whenever the test says so, before or after the request reaches the port (the
    // entry's fsync is awaited off the event loop before it is sent).
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: ExecutePort = {
      executeVersion: async () => {
        await gate;
        return { version: version(), location: '/loc' };
      },
    };
    const { executions, draftId } = setup(slow);
    const first = executions.executeDraft(draftId);
    await expect(executions.executeDraft(draftId)).rejects.toBeInstanceOf(ExecutionBlockedError);
    release();
    await expect(first).resolves.toMatchObject({ location: '/loc' });
  });

  /** A pending entry (journaled, not marked sent) and another strategy's entry on the wire. */
  function cutOff(journal: ReturnType<typeof setup>['journal']) {
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
    return { never, onWire };
  }

  it('at start-up withdraws what was never sent and turns what was sent into unknown, sending nothing', () => {
    const { journal, executions, recovery } = setup(service([]).client);
    const { never, onWire } = cutOff(journal);
    const left = recovery.reconcileAtStartup(false);
    expect(left.map((e) => [e.id, e.state])).toEqual([[onWire.id, 'unknown']]);
    expect(journal.get(never.id)).toMatchObject({ state: 'rejected', attempts: 0 });
    expect(journal.get(never.id)!.error).toMatch(/nothing was sent/);
    expect(journal.get(onWire.id)!.error).toMatch(/may or may not have been accepted/);
    expect(executions.inFlight(PID).map((e) => e.id)).toEqual([onWire.id]);
  });

  it('after the computer restarted, a pending entry may have left: unknown, not withdrawn', () => {
    const { journal, executions, recovery } = setup(service([]).client);
    const { never, onWire } = cutOff(journal);
    const left = recovery.reconcileAtStartup(true);
    expect(left.map((e) => [e.id, e.state])).toEqual([
      [never.id, 'unknown'],
      [onWire.id, 'unknown'],
    ]);
    expect(journal.get(never.id)!.error).toMatch(/may or may not have left/);
    recovery.dismiss(never.id);
    expect(executions.inFlight(PID).map((e) => e.id)).toEqual([onWire.id]);
  });
});
