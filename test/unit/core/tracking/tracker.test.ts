import { describe, expect, it } from 'vitest';
import type { Version, VersionStatus } from '../../../../shared/domain/resources';
import {
  VersionTracker,
  type TrackedVersion,
  type TrackerEvent,
} from '../../../../electron/core/tracking/tracker';

const SID = '11111111-1111-4111-8111-111111111111';

function versionWith(id: string, status: VersionStatus): Version {
  return {
    id,
    strategy_id: SID,
    cash_weight: '10',
    old_cash_weight: '100',
    scheduled_for: null,
    status,
    executed_at: '2026-11-22T10:00:00.000000Z',
    inserted_at: '2026-11-22T10:00:00.000000Z',
  };
}

function entry(id: string): TrackedVersion {
  return {
    profileId: SID,
    strategyId: SID,
    versionId: id,
    location: `/v/${id}`,
    status: 'PENDING',
  };
}

/** A scripted service: each version walks through its own list of statuses, one per poll. */
function scripted(scripts: Record<string, (VersionStatus | Error)[]>) {
  const polls: Record<string, number> = {};
  return {
    polls,
    fetch: async (e: TrackedVersion) => {
      const n = (polls[e.versionId] = (polls[e.versionId] ?? 0) + 1);
      const script = scripts[e.versionId]!;
      const step = script[Math.min(n - 1, script.length - 1)]!;
      if (step instanceof Error) throw step;
      return versionWith(e.versionId, step);
    },
  };
}

function makeTracker(
  fetchVersion: (e: TrackedVersion) => Promise<Version>,
  opts: { final?: (e: unknown) => boolean } = {},
) {
  const events: TrackerEvent[] = [];
  const saved: Version[] = [];
  const tracker = new VersionTracker({
    fetchVersion,
    saveVersion: (_e, v) => saved.push(v),
    waitUntilOnline: async () => {},
    isFinalFailure: opts.final ?? (() => false),
    describeFailure: (e) => String((e as Error).message),
    onEvent: (e) => events.push(e),
    backoff: { initialMs: 1, factor: 1.5, maxMs: 5 },
  });
  const settle = async () => {
    while (tracker.size > 0) await new Promise((r) => setTimeout(r, 2));
  };
  return { tracker, events, saved, settle };
}

describe('VersionTracker', () => {
  it('follows a version to COMPLETE, storing every answer and announcing each change once', async () => {
    const service = scripted({
      a: ['PENDING', 'PENDING', 'CREATING_ORDERS', 'IN_PROGRESS', 'IN_PROGRESS', 'COMPLETE'],
    });
    const { tracker, events, saved, settle } = makeTracker(service.fetch);
    tracker.track(entry('a'));
    await settle();
    expect(saved.map((v) => v.status)).toEqual([
      'PENDING',
      'PENDING',
      'CREATING_ORDERS',
      'IN_PROGRESS',
      'IN_PROGRESS',
      'COMPLETE',
    ]);
    const changes = events.filter((e) => e.type === 'status-changed');
    expect(changes.map((e) => [e.previousStatus, e.status, e.ended])).toEqual([
      ['PENDING', 'CREATING_ORDERS', false],
      ['CREATING_ORDERS', 'IN_PROGRESS', false],
      ['IN_PROGRESS', 'COMPLETE', true],
    ]);
    expect(service.polls.a).toBe(6);
  });

  it('keeps polling through passing failures and stops on a final one', async () => {
    const service = scripted({
      a: [new Error('reset'), 'PENDING', 'FAILED'],
      b: [new Error('gone')],
    });
    const { tracker, events, settle } = makeTracker(service.fetch, {
      final: (e) => (e as Error).message === 'gone',
    });
    tracker.track(entry('a'));
    tracker.track(entry('b'));
    await settle();
    const failures = events.filter((e) => e.type === 'poll-failed');
    expect(failures.map((e) => [e.versionId, e.willRetry])).toEqual(
      expect.arrayContaining([
        ['a', true],
        ['b', false],
      ]),
    );
    expect(
      events.some(
        (e) => e.type === 'status-changed' && e.versionId === 'a' && e.status === 'FAILED',
      ),
    ).toBe(true);
    expect(service.polls.b).toBe(1);
  });

  it('follows 50 versions at once; one that never ends stalls none of the others', async () => {
    const scripts: Record<string, VersionStatus[]> = { stuck: ['IN_PROGRESS'] };
    for (let i = 0; i < 50; i++) scripts[`v${i}`] = ['PENDING', 'IN_PROGRESS', 'COMPLETE'];
    const service = scripted(scripts);
    const { tracker, events } = makeTracker(service.fetch);
    tracker.track(entry('stuck'));
    for (let i = 0; i < 50; i++) tracker.track(entry(`v${i}`));
    while (events.filter((e) => e.type === 'status-changed' && e.ended).length < 50) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(tracker.isTracking('stuck')).toBe(true);
    expect(tracker.size).toBe(1);
    tracker.stopAll();
    expect(tracker.size).toBe(0);
  });

  it('does not follow a version that already ended, nor the same version twice', async () => {
    const service = scripted({ a: ['COMPLETE'] });
    const { tracker } = makeTracker(service.fetch);
    tracker.track({ ...entry('done'), status: 'COMPLETE' });
    expect(tracker.size).toBe(0);
    tracker.track(entry('a'));
    tracker.track(entry('a'));
    expect(tracker.size).toBe(1);
  });

  it('waits for credentials instead of giving up, keeps the reason, and clears it once a poll succeeds', async () => {
    const service = scripted({ a: [new Error('no secret'), 'PENDING', 'COMPLETE'] });
    let entered: () => void = () => {};
    const credentials = new Promise<void>((resolve) => (entered = resolve));
    const events: TrackerEvent[] = [];
    const tracker = new VersionTracker({
      fetchVersion: service.fetch,
      saveVersion: () => {},
      waitUntilOnline: async () => {},
      isFinalFailure: () => false,
      needsCredentials: (e) => (e as Error).message === 'no secret',
      waitForCredentials: () => credentials,
      describeFailure: (e) => (e as Error).message,
      onEvent: (e) => events.push(e),
      now: () => '2026-11-22T10:00:00.000Z',
      backoff: { initialMs: 1, factor: 1, maxMs: 1 },
    });
    tracker.track(entry('a'));
    while (tracker.stateOf('a') === null) await new Promise((r) => setTimeout(r, 2));
    expect(tracker.stateOf('a')).toEqual({
      lastError: 'no secret',
      lastErrorAt: '2026-11-22T10:00:00.000Z',
      waitingFor: 'credentials',
      active: true,
    });
    await new Promise((r) => setTimeout(r, 20));
    // Nothing polled in vain while the secret is missing.
    expect(service.polls.a).toBe(1);
    entered();
    while (tracker.size > 0) await new Promise((r) => setTimeout(r, 2));
    expect(tracker.stateOf('a')).toBeNull();
    expect(events.filter((e) => e.type === 'tracking-changed')).toHaveLength(2);
  });

  it('"Check now" cuts a long wait short and resolves after that poll', async () => {
    const service = scripted({ a: [new Error('refused'), 'COMPLETE'] });
    const slow = new VersionTracker({
      fetchVersion: service.fetch,
      saveVersion: () => {},
      waitUntilOnline: async () => {},
      isFinalFailure: () => false,
      describeFailure: (e) => (e as Error).message,
      onEvent: () => {},
      backoff: { initialMs: 60_000, factor: 1, maxMs: 60_000 },
    });
    slow.track(entry('a'));
    while (slow.stateOf('a') === null) await new Promise((r) => setTimeout(r, 2));
    await slow.checkNow(entry('a'));
    expect(service.polls.a).toBe(2);
    expect(slow.isTracking('a')).toBe(false);
    expect(slow.stateOf('a')).toBeNull();
  });
});

describe('VersionTracker: a version the service does not know yet', () => {
  it('keeps polling within the lag window on the clock, then stops once it is past', async () => {
    let clock = 0;
    let polls = 0;
    const events: TrackerEvent[] = [];
    const tracker = new VersionTracker({
      fetchVersion: async () => {
        polls++;
        clock += 10_000; // each poll takes ten seconds on the tracker's clock
        throw new Error('not found');
      },
      saveVersion: () => undefined,
      waitUntilOnline: async () => {},
      isFinalFailure: () => true,
      mayBeLagging: () => true,
      lagWindowMs: 60_000,
      clock: () => clock,
      describeFailure: () => 'The service does not know this version.',
      onEvent: (e) => events.push(e),
      backoff: { initialMs: 1, factor: 1, maxMs: 1 },
    });
    tracker.track(entry('a'));
    while (tracker.size > 0) await new Promise((r) => setTimeout(r, 2));
    // Unknown from the first poll's end (10 s) until a poll ends 60 s later (70 s): 7 polls.
    expect(polls).toBe(7);
    const failed = events.filter((e) => e.type === 'poll-failed');
    expect(failed.map((e) => e.type === 'poll-failed' && e.willRetry)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(tracker.stateOf('a')).toMatchObject({ active: false });
    expect(tracker.stateOf('a')!.lastError).toMatch(/after 1 minute of looking: following stopped/);
  });
});
