import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskError } from '../../../shared/views';
import {
  DEMO_BOOK_STRATEGY_IDS as BOOK,
  DEMO_STRATEGY_IDS as DEMO,
} from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import {
  addMany,
  createStrategies,
  expectWholeOrNone,
  jobEnded,
  wholeBook,
} from '../../support/book';

/** The book's "Add many" through the real desk, the sandbox over HTTP and SQLite. */
describe('adding many strategies from a pasted list', () => {
  let h: DeskHarness;
  let profileId: string;
  let base: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    base = h.sandbox()!.baseUrl;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('gives every line its outcome and adds each new strategy whole, once', async () => {
    const unknown = randomUUID();
    const text = [
      '\ufeffStrategy ID,Name',
      `"${BOOK.incomePlus}",Income Plus`,
      `  ${BOOK.bondLadder.toUpperCase()}  ,Bond Ladder`,
      '',
      `\u00a0${BOOK.techLeaders}\u200b,Tech Leaders`,
      `${DEMO.coreEquity},Core Equity`,
      `${BOOK.incomePlus},again`,
      `${DEMO.otherFund},Other Fund`,
      `${unknown},nobody`,
      'not an id,at all',
      '   ',
    ].join('\r\n');
    const started = await h.desk.book.addMany({ profileId, text });
    expect(started.kind).toBe('add');
    const job = started.state === 'running' ? await jobEnded(h, started.id) : started;
    expect(job).toMatchObject({ state: 'finished', total: 5, done: 5, failed: 2, lines: 9 });
    expect(job.outcomes).toMatchObject({
      header: 1,
      added: 3,
      'already-added': 1,
      duplicate: 1,
      'not-found': 2,
      'not-an-id': 1,
      waiting: 0,
    });

    const { lines, total } = await h.desk.book.addOutcomes({
      profileId,
      jobId: job.id,
      offset: 0,
      limit: 500,
    });
    expect(total).toBe(9);
    expect(lines.map((l) => [l.line, l.outcome, l.detail])).toEqual([
      [1, 'header', 'Taken for a header'],
      [2, 'added', 'Income Plus'],
      [3, 'added', 'Bond Ladder'],
      [5, 'added', 'Tech Leaders'],
      [6, 'already-added', 'Core Equity'],
      [7, 'duplicate', 'The same id as line 2'],
      [8, 'not-found', 'Not found, or of another organization'],
      [9, 'not-found', 'Not found, or of another organization'],
      [10, 'not-an-id', null],
    ]);
    expect(lines[2]!.strategyId).toBe(BOOK.bondLadder);

    // Each added strategy is in the app with its holdings, and its addition is in the log once.
    for (const id of [BOOK.incomePlus, BOOK.bondLadder, BOOK.techLeaders]) {
      const view = await h.desk.strategies.get({ profileId, strategyId: id });
      expect(view.holdings.length).toBeGreaterThan(0);
    }
    const added = await h.desk.activity.list({
      profileId,
      kinds: ['strategy-added'],
      offset: 0,
      limit: 100,
    });
    const names = added.entries.map((e) => e.strategyName).sort();
    expect(names).toEqual([
      'Bond Ladder',
      'Core Equity',
      'Dividend Growth',
      'Fresh Start',
      'Income Plus',
      'Tech Leaders',
    ]);
    expect((await wholeBook(h, profileId)).map((r) => r.name)).toEqual([
      'Bond Ladder',
      'Core Equity',
      'Dividend Growth',
      'Fresh Start',
      'Income Plus',
      'Tech Leaders',
    ]);

    const { text: copied } = await h.desk.book.copyOutcomes({ profileId, jobId: job.id });
    const copiedLines = copied.trimEnd().split('\n');
    expect(copiedLines[0]).toBe('Line\tValue\tOutcome\tDetail');
    expect(copiedLines[3]).toBe(`3\t${BOOK.bondLadder.toUpperCase()}\tAdded\tBond Ladder`);
    expect(copiedLines).toHaveLength(10);
  });

  it('refuses a text that is not text, and adds nothing', async () => {
    const before = (await wholeBook(h, profileId)).length;
    const error = await h.desk.book
      .addMany({ profileId, text: `PK\u0003\u0004\0\0${BOOK.legacyBalanced}` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskError);
    expect((error as DeskError).kind).toBe('invalid-input');
    expect((error as DeskError).message).toMatch(/not text/);
    expect(await wholeBook(h, profileId)).toHaveLength(before);
  });

  it('handles 100,000 lines with an outcome each, reading each new id once', async () => {
    const { ids } = await createStrategies(base, { count: 40, holdings: 3 });
    const requestsBefore = await apiRequests(base);
    const lines: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      if (i < ids.length) lines.push(ids[i]!);
      else if (i % 3 === 0) lines.push(ids[i % ids.length]!);
      else if (i % 3 === 1) lines.push(`row ${i}`);
      else lines.push('');
    }
    const job = await addMany(h, profileId, lines);
    expect(job).toMatchObject({ state: 'finished', total: 40, done: 40, failed: 0 });
    const nonBlank = lines.filter((l) => l !== '').length;
    expect(job.lines).toBe(nonBlank);
    expect(job.outcomes!.added).toBe(40);
    expect(job.outcomes!.duplicate + job.outcomes!['not-an-id'] + 40).toBe(nonBlank);
    // One read per new id (and nothing else against the service).
    expect((await apiRequests(base)) - requestsBefore).toBe(40);
    const page = await h.desk.book.addOutcomes({
      profileId,
      jobId: job.id,
      offset: 99_000,
      limit: 500,
    });
    expect(page.total).toBe(nonBlank);
    for (const line of page.lines) expect(['duplicate', 'not-an-id']).toContain(line.outcome);
  });

  it('cancelled midway, leaves each strategy added whole or not at all', async () => {
    const { ids } = await createStrategies(base, { count: 60, holdings: 6 });
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', { latency_ms: 60 });
    const job = await h.desk.book.addMany({ profileId, text: ids.join('\n') });
    await h.waitFor((e) => e.type === 'book-job-changed' && e.job.id === job.id && e.job.done >= 8);
    await h.desk.book.cancelAdd({ profileId });
    const ended = await jobEnded(h, job.id);
    await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
    expect(ended.state).toBe('cancelled');
    const { lines } = await h.desk.book.addOutcomes({
      profileId,
      jobId: job.id,
      offset: 0,
      limit: 500,
    });
    const added = lines.filter((l) => l.outcome === 'added');
    const cancelled = lines.filter((l) => l.outcome === 'cancelled');
    expect(added.length).toBeGreaterThanOrEqual(8);
    expect(cancelled.length).toBeGreaterThan(0);
    expect(added.length + cancelled.length).toBe(60);
    expectWholeOrNone(h, profileId, lines, 6);
    // An add may start again now; the ids added before are "already in the app".
    const again = await addMany(h, profileId, ids);
    expect(again.outcomes).toMatchObject({
      'already-added': added.length,
      added: cancelled.length,
    });
  });

  it('refuses a second add while one runs', async () => {
    const { ids } = await createStrategies(base, { count: 8, holdings: 1 });
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', { latency_ms: 200 });
    const first = await h.desk.book.addMany({ profileId, text: ids.join('\n') });
    const error = await h.desk.book
      .addMany({ profileId, text: ids.join('\n') })
      .catch((e: unknown) => e);
    expect((error as DeskError).kind).toBe('busy');
    await jobEnded(h, first.id);
    await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
  });
});

async function apiRequests(base: string): Promise<number> {
  const counters = (await sandboxAdmin(base, 'GET', '/sandbox/counters')) as {
    data: { api_requests: number };
  };
  return counters.data.api_requests;
}
