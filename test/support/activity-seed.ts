import { randomUUID } from 'node:crypto';
import type { ActivityKind } from '../../shared/activity/kinds';
import type { Store } from '../../electron/core/store';

/**
 * Writes `count` valid, chained activity entries for one profile in a single transaction (the
 * view's 100,000-entry bench and tests). Kinds cycle through a manager's usual actions; times
 * run one minute apart from `startAt`, so day filters have several days to pick from.
 */
export interface ActivitySeed {
  profileId: string;
  profileName?: string;
  count: number;
  /** Strategies the entries are spread over (round robin). Default: two new ids. */
  strategyIds?: string[];
  startAt?: string;
}

const CYCLE: ActivityKind[] = [
  'execution-sent',
  'execution-answered',
  'version-ended',
  'version-imported',
  'execution-sent',
  'execution-answered',
  'version-deleted',
  'strategy-added',
];

export function seedActivity(
  store: Store,
  seed: ActivitySeed,
): { firstSeq: number; lastSeq: number } {
  const strategies = seed.strategyIds ?? [randomUUID(), randomUUID()];
  const profileName = seed.profileName ?? 'Seeded profile';
  const start = Date.parse(seed.startAt ?? '2026-01-05T09:00:00.000Z');
  return store.activity.record(
    (append) => {
      let firstSeq = 0;
      let lastSeq = 0;
      let lastSent: number | null = null;
      for (let i = 0; i < seed.count; i++) {
        const kind = CYCLE[i % CYCLE.length]!;
        const strategyId = strategies[i % strategies.length]!;
        const versionId =
          kind === 'execution-sent' || kind === 'strategy-added' ? null : randomUUID();
        const payload: Record<string, unknown> = {
          profileName,
          strategyName: `Strategy ${strategies.indexOf(strategyId) + 1}`,
        };
        if (kind === 'execution-sent') {
          payload.journalId = randomUUID();
          payload.idempotencyKey = randomUUID();
          payload.requestBody = JSON.stringify({
            data: {
              positions: [
                { symbol: 'AAPL', weight: '40' },
                { symbol: 'MSFT', weight: '60' },
              ],
            },
          });
        } else if (kind === 'execution-answered') {
          Object.assign(payload, { result: 'accepted', versionId, status: 'PENDING', attempt: 1 });
        } else if (kind === 'version-ended') {
          Object.assign(payload, {
            status: 'COMPLETE',
            orderCounts: { PENDING: 0, IGNORED: 0, SENT: 0, FILLED: 2, FAILED: 0 },
            filledValue: '1000.50',
          });
        }
        const row = append({
          profileId: seed.profileId,
          kind,
          strategyId:
            kind === 'strategy-added' || kind.startsWith('execution') || versionId
              ? strategyId
              : null,
          versionId,
          refersTo: kind === 'execution-answered' || kind === 'version-ended' ? lastSent : null,
          payload,
          at: new Date(start + i * 60_000).toISOString(),
        });
        if (kind === 'execution-sent') lastSent = row.seq;
        if (i === 0) firstSeq = row.seq;
        lastSeq = row.seq;
      }
      return { firstSeq, lastSeq };
      // Seeded rows are not announced one by one: a desk's view would drown in events.
    },
    { announce: false },
  );
}
