/**
 * `activity_append_overhead` (docs/activity.md): the local bookkeeping of 1,000 executions as the
 * real path writes it (journaled, sent, accepted: the execution journal with its activity
 * entries, each step one durable transaction) divided by the same journal writes alone. No
 * network. Both run on real SQLite files in the same folder, in alternating rounds so the disk
 * and the machine's load weigh on both alike. Goal: at most 1.5.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toDeskError } from '../../electron/core/desk/errors';
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

/** One execution's bookkeeping: journaled before sending, marked sent, then accepted. */
function executions(
  journal: Pick<JournalPort, 'createExclusive' | 'markSent' | 'markAccepted'>,
  ids: { store: Store; profileId: string; strategyId: string },
  count: number,
  recorded: boolean,
): number {
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
    const made = journal.createExclusive(
      {
        profileId: ids.profileId,
        strategyId: ids.strategyId,
        draftId,
        idempotencyKey: randomUUID(),
        requestBody: BODY,
      },
      recorded ? { predictionId: 'none', confirmed: true, acknowledgedStale: false } : null,
    );
    if (!('created' in made)) throw new Error('an earlier execution is still in flight');
    journal.markSent(made.created.id);
    journal.markAccepted(made.created.id, { versionId: randomUUID(), location: '/v' });
  }
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export default async function activityAppendBench(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'strategy-desk-activity-bench-'));
  const plain = seeded(join(dir, 'journal-only.sqlite'));
  const withLog = seeded(join(dir, 'journal-and-activity.sqlite'));
  try {
    // As the desk wires it (every execution here is accepted, so nothing is described).
    const recording = recordingJournal(withLog.store, toDeskError);
    // Warm-up: statements prepared, pages cached.
    executions(plain.store.journal, plain, 20, false);
    executions(recording, withLog, 20, true);
    let journalMs = 0;
    let activityMs = 0;
    const perRound = Math.ceil(EXECUTIONS / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      journalMs += executions(plain.store.journal, plain, perRound, false);
      activityMs += executions(recording, withLog, perRound, true);
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
