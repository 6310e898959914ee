/**
 * `activity_append_overhead` (docs/activity.md): the local bookkeeping of 1,000 executions as the
 * real path writes it (journaled and on disk before sending, marked sent, then accepted: the execution
 * journal with its activity entries) divided by the same journal writes alone, each a durable
 * transaction. No
 * network. Both run on real SQLite files in the same folder, in alternating rounds so the disk
 * and the machine's load weigh on both alike. Goal: at most 1.5.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toDeskError } from '../../electron/core/errors';
import { recordingJournal, type JournalPort } from '../../electron/core/execution/journal';
import { openStore, type Store } from '../../electron/core/store';

const EXECUTIONS = Number(process.env.ACTIVITY_BENCH_EXECUTIONS ?? 1000);
const ROUNDS = 10;

const BODY = JSON.stringify({
  data: {
    positions: Array.from({ length: 20 }, (_, i) => ({ symbol: `SYM${i}`, weight: '5' })),
  },
});

function seeded(path: string): { store: Store; profileId: string; strategyId: string } {
  const store = openStore(path);
  const profile = store.profiles.create({
    name: 'Bench',
    baseUrl: 'http://127.0.0.1:1',
    clientId: 'bench',
    environment: 'production',
  });
  const strategyId = randomUUID();
  store.strategies.upsert(profile.id, {
    id: strategyId,
    name: 'Bench strategy',
    description: '',
    fee_percent: '0',
    is_liquidate_only: false,
    liquidate_only_reason: null,
    inserted_at: '2026-01-01T00:00:00.000000Z',
    updated_at: '2026-01-01T00:00:00.000000Z',
    positions: [],
  });
  return { store, profileId: profile.id, strategyId };
}

/** What one execution's bookkeeping writes: journaled as sent and on disk, then accepted. */
interface Bookkeeping {
  journalToSend(draftId: string, recorded: boolean): Promise<string>;
  markAccepted(id: string, result: { versionId: string; location: string }): unknown;
}

/** The real path: the request armed (journaled pending, the WAL fsynced), marked sent. */
function recordedBookkeeping(journal: JournalPort, ids: Seeded): Bookkeeping {
  return {
    async journalToSend(draftId, recorded) {
      const confirmation = recorded
        ? { predictionId: 'none', confirmed: true, acknowledgedStale: false }
        : null;
      const made = journal.arm(input(draftId, ids), confirmation);
      if (!('created' in made)) throw new Error('an earlier execution is still in flight');
      await ids.store.durable();
      journal.markSent(made.created.id, { confirmation });
      return made.created.id;
    },
    markAccepted: (id, result) => journal.markAccepted(id, result),
  };
}

/** The journal alone: each write its own durable transaction. */
function plainBookkeeping(ids: Seeded): Bookkeeping {
  const { store } = ids;
  return {
    journalToSend(draftId) {
      const made = store.journal.createExclusive(input(draftId, ids));
      if (!('created' in made)) throw new Error('an earlier execution is still in flight');
      store.journal.markSent(made.created.id);
      return Promise.resolve(made.created.id);
    },
    markAccepted: (id, result) => store.journal.markAccepted(id, result),
  };
}

type Seeded = ReturnType<typeof seeded>;

function input(draftId: string, ids: Seeded) {
  return {
    profileId: ids.profileId,
    strategyId: ids.strategyId,
    draftId,
    idempotencyKey: randomUUID(),
    requestBody: BODY,
  };
}

/** `count` executions' bookkeeping, timed. */
async function executions(
  journal: Bookkeeping,
  ids: Seeded,
  count: number,
  recorded: boolean,
): Promise<number> {
  // Drafts exist before they are executed: made outside the timing.
  const drafts = Array.from(
    { length: count },
    (_, i) =>
      ids.store.drafts.create({
        profileId: ids.profileId,
        strategyId: ids.strategyId,
        name: `Draft ${i}`,
      }).id,
  );
  const started = process.hrtime.bigint();
  for (const draftId of drafts) {
    const id = await journal.journalToSend(draftId, recorded);
    journal.markAccepted(id, { versionId: randomUUID(), location: '/v' });
  }
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export default async function activityAppendBench(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'strategy-desk-activity-bench-'));
  const plain = seeded(join(dir, 'journal-only.sqlite'));
  const withLog = seeded(join(dir, 'journal-and-activity.sqlite'));
  try {
    // As the desk wires it (every execution here is accepted, so nothing is described).
    const recording = recordedBookkeeping(recordingJournal(withLog.store, toDeskError), withLog);
    const journalOnly = plainBookkeeping(plain);
    // Warm-up: statements prepared, pages cached.
    await executions(journalOnly, plain, 20, false);
    await executions(recording, withLog, 20, true);
    let journalMs = 0;
    let activityMs = 0;
    const perRound = Math.ceil(EXECUTIONS / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      journalMs += await executions(journalOnly, plain, perRound, false);
      activityMs += await executions(recording, withLog, perRound, true);
    }
    const entries = withLog.store.activity.count({ profileId: withLog.profileId });
    if (entries !== 2 * (perRound * ROUNDS + 20))
      throw new Error(`expected two entries per execution, found ${entries}`);
    console.log(
      `  ${perRound * ROUNDS} executions: journal ${journalMs.toFixed(0)} ms, with activity ${activityMs.toFixed(0)} ms`,
    );
    return { activity_append_overhead: Number((activityMs / journalMs).toFixed(3)) };
  } finally {
    plain.store.close();
    withLog.store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
