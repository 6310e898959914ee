import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BookJob } from '../../../shared/book/views';
import type { DeskEvent } from '../../../shared/contract';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import { addMany, createStrategies, expectWholeOrNone, jobEnded } from '../../support/book';
import { call, executePath, target, tokenFor, waitForEnd } from '../../support/sandbox-http';

/**
 * The book's reads stored in groups, through the real desk, the sandbox over HTTP and SQLite:
 * an added strategy is told added only once the WAL holding it is on disk (the group's fsync,
 * off the event loop), a cancel is told once what it stored is, a refused fsync is said in
 * words, and a refresh announces its rows as worked out from what it stored. The store's
 * `durable()` (the fsync) is held back by the test where it needs the moment in between.
 */

/** Holds back the store's fsync: every call waits for `open()` (or fails with `refuse`). */
function holdDisk(h: DeskHarness) {
  const { store } = h.desk;
  const real = store.durable.bind(store);
  let open!: () => void;
  let refuse!: (error: unknown) => void;
  const gate = new Promise<void>((resolve, reject) => {
    open = resolve;
    refuse = reject;
  });
  // Refused before anyone asks: not an unhandled rejection (each caller gets its own).
  gate.catch(() => undefined);
  let called!: () => void;
  const asked = new Promise<void>((resolve) => (called = resolve));
  store.durable = () => {
    called();
    return gate.then(real);
  };
  return { asked, open, refuse, restore: () => (store.durable = real) };
}

const addJob = (e: DeskEvent, jobId: string): BookJob | null =>
  e.type === 'book-job-changed' && e.job.id === jobId ? e.job : null;

describe('the book’s reads, stored in groups', () => {
  let h: DeskHarness;
  let profileId: string;
  let base: string;
  let restore: (() => void) | undefined;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    base = h.sandbox()!.baseUrl;
  });
  afterEach(async () => {
    restore?.();
    restore = undefined;
    await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('tells a strategy added only once the disk has it', async () => {
    const { ids } = await createStrategies(base, { count: 6, holdings: 3 });
    const disk = holdDisk(h);
    restore = disk.restore;
    const job = await h.desk.book.addMany({ profileId, text: ids.join('\n') });
    await disk.asked;
    // Committed (each whole, in SQLite), but not on disk yet: none is told added.
    const committed = ids.filter((id) => h.desk.store.strategies.has(profileId, id));
    expect(committed.length).toBeGreaterThan(0);
    const held = (await h.desk.book.summary({ profileId })).add!;
    expect(held).toMatchObject({ id: job.id, state: 'running' });
    expect(held.outcomes!.added).toBe(0);
    const { lines } = await h.desk.book.addOutcomes({
      profileId,
      jobId: job.id,
      offset: 0,
      limit: 10,
    });
    for (const line of lines.filter((l) => committed.includes(l.strategyId!)))
      expect(line.outcome).toBe('waiting');
    expect(h.events.some((e) => addJob(e, job.id)?.outcomes?.added)).toBe(false);

    disk.open();
    const ended = await jobEnded(h, job.id);
    expect(ended.outcomes).toMatchObject({ added: 6, waiting: 0 });
  });

  it('cancelled while the disk has not confirmed: its end is told once it has', async () => {
    const { ids } = await createStrategies(base, { count: 40, holdings: 3 });
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', { latency_ms: 40 });
    const disk = holdDisk(h);
    restore = disk.restore;
    const job = await h.desk.book.addMany({ profileId, text: ids.join('\n') });
    await disk.asked;
    const cancelling = h.desk.book.cancelAdd({ profileId });
    // The cancel took hold: its reads under way were dropped.
    await expect
      .poll(async () => {
        const add = (await h.desk.book.summary({ profileId })).add!;
        return `${add.state}, ${add.inFlight} in flight`;
      })
      .toBe('cancelled, 0 in flight');
    // The book's jobs are announced meanwhile (a refresh that ends at once), yet not this end:
    // committed strategies still wait for the disk.
    await h.desk.book.refresh({ profileId, selection: { kind: 'tag', tag: 'none' } });
    expect(h.events.some((e) => addJob(e, job.id)?.state === 'cancelled')).toBe(false);

    disk.open();
    await cancelling;
    const ended = await jobEnded(h, job.id);
    expect(ended.state).toBe('cancelled');
    const { lines } = await h.desk.book.addOutcomes({
      profileId,
      jobId: job.id,
      offset: 0,
      limit: 100,
    });
    const added = lines.filter((l) => l.outcome === 'added');
    expect(added.length).toBeGreaterThan(0);
    expect(added.length).toBe(ended.outcomes!.added);
    expect(added.length + ended.outcomes!.cancelled).toBe(40);
    // Told with its end: every strategy is added whole or not at all.
    expectWholeOrNone(h, profileId, lines, 3);
  });

  it('says so in words when the disk refuses the fsync', async () => {
    const { ids } = await createStrategies(base, { count: 3, holdings: 2 });
    const disk = holdDisk(h);
    restore = disk.restore;
    disk.refuse(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    const ended = await addMany(h, profileId, ids);
    expect(ended).toMatchObject({ state: 'finished', failed: 3 });
    const { lines } = await h.desk.book.addOutcomes({
      profileId,
      jobId: ended.id,
      offset: 0,
      limit: 10,
    });
    for (const line of lines) {
      expect(line.outcome).toBe('failed');
      expect(line.detail).toMatch(/^Stored, but the disk did not confirm the write/);
      expect(line.detail).not.toMatch(/EIO|fdatasync/);
    }
  });

  it('announces a refresh’s rows as worked out from what it stored', async () => {
    const { ids } = await createStrategies(base, { count: 2, holdings: 3 });
    await addMany(h, profileId, ids);
    const token = await tokenFor(base, 'manager');
    for (const id of ids) {
      const answer = await call(base, 'POST', executePath(id), {
        token,
        body: target(['KO', '50']),
      });
      expect(answer.status).toBe(202);
      await waitForEnd(base, token, answer.headers.location as string);
    }
    const from = h.events.length;
    const job = await h.desk.book.refresh({
      profileId,
      selection: { kind: 'ids', strategyIds: ids },
    });
    await jobEnded(h, job.id);
    const announced = new Map<string, string[]>();
    for (const e of h.events.slice(from))
      if (e.type === 'book-rows-changed')
        for (const row of e.rows) announced.set(row.strategyId, row.heldSymbols);
    expect(Object.fromEntries(announced)).toEqual(
      Object.fromEntries(ids.map((id) => [id, ['KO']])),
    );
  });
});
