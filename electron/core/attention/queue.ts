import {
  ATTENTION_KINDS,
  attentionRank,
  type AttentionKind,
} from '../../../shared/attention/kinds';
import type { AttentionQueue } from '../../../shared/attention/contract';
import { Decimal } from '../../../shared/decimal';
import { followerView } from '../models/views';
import type { Store } from '../store';
import type { SignalRecord } from '../store/repositories/attention';

/**
 * The attention queue (docs/attention.md): every signal source's findings for a profile, in words
 * with their evidence, without those the manager set aside while their evidence is unchanged,
 * ordered by what to act on first. A source is one function (most are one SQL query each,
 * store/repositories/attention.ts); another area's source (restrictions: an order that broke a
 * restriction in force when it was sent) is one more entry of the list the desk hands over.
 */
export type SignalSource = (profileId: string, now: string) => readonly SignalRecord[];

/** The sources of the app's own signals: the SQL ones, and the models' sync state. */
export function ownSignalSources(store: Store): SignalSource[] {
  return [
    (profileId, now) => store.attention.signals(profileId, now),
    (profileId) => modelOutOfSync(store, profileId),
  ];
}

/**
 * Strategies following a model whose revision differs from their known target (the models'
 * sync state, as the book's model column shows it): worked out per follower, as the sync state
 * needs the revision's rows and the known target compared weight by weight.
 */
function modelOutOfSync(store: Store, profileId: string): SignalRecord[] {
  const rows = new Map<string, ReturnType<Store['models']['rows']>>();
  const rowsOf = (id: string) => rows.get(id) ?? rows.set(id, store.models.rows(id)).get(id)!;
  return store.models.assignmentsOf(profileId).flatMap((a) => {
    const follower = followerView(store, a, rowsOf);
    if (follower.sync.state !== 'out-of-sync') return [];
    const symbols = follower.sync.differences.map((d) => d.symbol).join(' ');
    return [
      {
        kind: 'model-out-of-sync',
        strategy_id: a.strategyId,
        subject: follower.revision.id,
        symbol: null,
        before: String(follower.revision.number),
        now: symbols,
        version_id: follower.targetVersionId,
      },
    ];
  });
}

const isKind = (kind: string): kind is AttentionKind =>
  (ATTENTION_KINDS as readonly string[]).includes(kind);

/** The key of a signal within its profile: strategy, kind, subject. */
export const signalKey = (r: Pick<SignalRecord, 'strategy_id' | 'kind' | 'subject'>) =>
  `${r.strategy_id}/${r.kind}/${r.subject}`;

/** What a dismissal compares: the facts the signal rests on, as found. */
const evidenceKeyOf = (r: SignalRecord) =>
  JSON.stringify([r.symbol, r.before, r.now, r.version_id]);

/** How many signals the queue carries unless asked for another number. */
export const QUEUE_PAGE = 100;

export function attentionQueue(
  store: Store,
  sources: readonly SignalSource[],
  profileId: string,
  now: string,
  window: { kind?: AttentionKind | undefined; limit?: number | undefined } = {},
): AttentionQueue {
  const found = sources.flatMap((source) => source(profileId, now));
  const names = store.attention.strategyNames(profileId);
  const dismissed = new Map(
    store.attention.dismissals(profileId).map((d) => [`${d.strategy_id}/${d.signal_key}`, d]),
  );
  const models = modelsByStrategy(store, profileId);
  let setAside = 0;
  const kept: { record: SignalRecord & { kind: AttentionKind }; name: string }[] = [];
  for (const r of found) {
    if (!isKind(r.kind)) continue;
    const name = names.get(r.strategy_id);
    if (name === undefined) continue;
    const key = signalKey(r);
    const evidenceKey = evidenceKeyOf(r);
    const d = dismissed.get(key);
    if (
      d &&
      d.evidence === evidenceKey &&
      (d.action === 'acknowledged' || (d.until !== null && d.until > now))
    ) {
      setAside++;
      continue;
    }
    kept.push({ record: { ...r, kind: r.kind }, name });
  }
  const counts = ATTENTION_KINDS.map((kind) => ({
    kind,
    count: kept.filter((k) => k.record.kind === kind).length,
  })).filter((c) => c.count > 0);
  const chosen = window.kind ? kept.filter((k) => k.record.kind === window.kind) : kept;
  // Ordered on the few facts the order needs; only the signals carried are put in words.
  const ordered = chosen
    .map(({ record: r, name }) => ({
      rank: attentionRank(r.kind),
      lowerName: name.toLowerCase(),
      strategyName: name,
      strategyId: r.strategy_id,
      symbol: r.symbol ?? '',
      key: signalKey(r),
      record: r,
    }))
    .sort(inQueueOrder);
  const signals = ordered
    .slice(0, window.limit ?? QUEUE_PAGE)
    .map(({ record: r, strategyName: name, key }) => ({
      key,
      kind: r.kind,
      strategyId: r.strategy_id,
      strategyName: name,
      symbol: r.symbol,
      before: r.before,
      now: r.now,
      versionId: r.version_id,
      model: models.get(r.strategy_id) ?? null,
      evidence: evidenceWords(r.kind, r),
      evidenceKey: evidenceKeyOf(r),
    }));
  return { signals, total: chosen.length, counts, setAside, ...store.attention.counts(profileId) };
}

/**
 * Kind (what to act on first), then strategy name, strategy id, symbol, key: a total order. Its
 * keys are worked out once per signal, not once per comparison (a thousand signals sort in about
 * ten thousand comparisons).
 */
interface Ordered {
  rank: number;
  lowerName: string;
  strategyName: string;
  strategyId: string;
  symbol: string;
  key: string;
}

function inQueueOrder(a: Ordered, b: Ordered): number {
  return (
    a.rank - b.rank ||
    compareText(a.lowerName, b.lowerName) ||
    compareText(a.strategyName, b.strategyName) ||
    compareText(a.strategyId, b.strategyId) ||
    compareText(a.symbol, b.symbol) ||
    compareText(a.key, b.key)
  );
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function modelsByStrategy(store: Store, profileId: string) {
  const names = new Map<string, string>();
  const byStrategy = new Map<string, { id: string; name: string }>();
  for (const a of store.models.assignmentsOf(profileId)) {
    const name = names.get(a.modelId) ?? store.models.get(a.modelId)?.name;
    if (name === undefined) continue;
    names.set(a.modelId, name);
    byStrategy.set(a.strategyId, { id: a.modelId, name });
  }
  return byStrategy;
}

/** The evidence in words: exact quantities and weights, never a price or a value. */
function evidenceWords(kind: AttentionKind, r: SignalRecord): string {
  const s = r.symbol ?? '';
  switch (kind) {
    case 'quantity-changed': {
      const change = new Decimal(r.now!).minus(r.before!);
      const ratio = new Decimal(r.now!).div(r.before!);
      const sign = change.isPositive() ? '+' : '';
      return `${s}: ${r.before} when the last rebalance ended, ${r.now} now (${sign}${change.toFixed()}; ×${ratio.toSignificantDigits(6).toFixed()})`;
    }
    case 'no-longer-held':
      return `${s}: ${r.before} when the last rebalance ended, none now`;
    case 'newly-held':
      return `${s}: none when the last rebalance ended, ${r.now} now`;
    case 'target-not-held':
      return `${s}: target weight ${r.before} %, not held`;
    case 'held-not-targeted':
      return `${s}: ${r.now} held, no weight in the target`;
    case 'unfilled': {
      const left = new Decimal(r.before!).minus(r.now!);
      return `${s}: ${r.now} of ${r.before} filled, ${left.toFixed()} left unfilled`;
    }
    case 'restricted-order':
      return `${s}: ${r.now} by version ${r.version_id}, against ${r.before}`;
    case 'outcome-unknown':
      return 'An execution was sent and its outcome is unknown';
    case 'failed-unacknowledged':
      return `Version ${r.version_id} ended ${r.now ?? 'with failed orders'}; not acknowledged`;
    case 'unexecuted':
      return `Version ${r.version_id} is not executed${r.now ? ` (scheduled for ${r.now})` : ''}`;
    case 'model-out-of-sync':
      return `Revision ${r.before} differs from the known target in ${r.now}`;
    case 'due':
      return `Due since ${r.before}; ${r.now ? `last executed ${r.now.slice(0, 10)}` : 'never executed here'}`;
  }
}
