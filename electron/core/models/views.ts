import type { DeskEventOf } from '../../../shared/contract';
import { TERMINAL_VERSION_STATUSES } from '../../../shared/domain/constants';
import { syncStateOf, type FailedRebalance } from '../../../shared/models/sync';
import type {
  ModelDetail,
  ModelFollower,
  ModelSummary,
  RevisionDetail,
  RevisionSummary,
} from '../../../shared/models/views';
import type {
  Store,
  StoredAssignment,
  StoredModelRow,
  StoredModel,
  StoredRevision,
  StoredVersion,
} from '../store';
import { knownTargetWithCheck } from '../strategies/targets';

/** Store rows to the views the contract carries. */

export type ModelStore = Pick<Store, 'models'>;

export const revisionView = (r: StoredRevision): RevisionSummary => ({
  id: r.id,
  modelId: r.modelId,
  number: r.number,
  createdAt: r.createdAt,
  note: r.note,
  hash: r.hash,
  rowCount: r.rowCount,
  total: r.total,
  savedBy: r.savedBy,
});

export function revisionDetailView(store: ModelStore, r: StoredRevision): RevisionDetail {
  return { ...revisionView(r), rows: store.models.rows(r.id) };
}

export function modelSummaryView(
  store: ModelStore,
  m: StoredModel,
  counts = store.models.counts(),
): ModelSummary {
  const latest = store.models.latest(m.id);
  return {
    id: m.id,
    library: m.team === null ? 'desk' : 'team',
    name: m.name,
    description: m.description,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    latest: latest ? revisionView(latest) : null,
    revisionCount: counts.revisions.get(m.id) ?? 0,
    followers: counts.followers.get(m.id) ?? 0,
    followersInProfile: counts.followersIn ? (counts.followersIn.get(m.id) ?? 0) : null,
  };
}

export function modelDetailView(store: ModelStore, m: StoredModel): ModelDetail {
  const revisions = store.models.revisions(m.id);
  const summary = modelSummaryView(store, m);
  return {
    ...summary,
    revisions: revisions.map(revisionView),
    rows: revisions[0] ? store.models.rows(revisions[0].id) : [],
  };
}

/** The model a strategy follows, with its sync state; null when it follows none. */
export function followerOf(store: Store, profileId: string, strategyId: string) {
  const assignment = store.models.assignmentOf(profileId, strategyId);
  return assignment ? followerView(store, assignment) : null;
}

/**
 * A strategy following a model, with its sync state: whether it holds the revision's target.
 * `rowsOf`: the revision's rows (a caller judging many followers of one revision reads them once).
 */
export function followerView(
  store: Store,
  a: StoredAssignment,
  rowsOf: (revisionId: string) => StoredModelRow[] = (id) => store.models.rows(id),
): ModelFollower {
  const model = store.models.get(a.modelId)!;
  const revision = a.revisionId
    ? store.models.revision(a.revisionId)!
    : store.models.latest(a.modelId)!;
  const stored = store.strategies.get(a.profileId, a.strategyId)!;
  const holdings = (stored.positions ?? []).map((h) => ({
    symbol: h.symbol,
    quantity: h.quantity,
  }));
  const { known, target, check } = knownTargetWithCheck(store, a.profileId, stored, holdings);
  return {
    profileId: a.profileId,
    strategyId: a.strategyId,
    strategyName: stored.name,
    modelId: model.id,
    modelName: model.name,
    revision: revisionView(revision),
    pinned: a.revisionId !== null,
    assignedAt: a.assignedAt,
    targetVersionId: target?.versionId ?? null,
    sync: syncStateOf(rowsOf(revision.id), target, check, failedRebalance(known)),
  };
}

/**
 * The known target's rebalance when it ended FAILED or with FAILED orders (IGNORED ones are the
 * service's routine minimum, not a failure): the strategy does not hold that target.
 */
function failedRebalance(known: StoredVersion | null): FailedRebalance | null {
  if (!known?.status || !TERMINAL_VERSION_STATUSES.has(known.status)) return null;
  const failed = (known.orders ?? []).filter((o) => o.status === 'FAILED');
  if (known.status !== 'FAILED' && failed.length === 0) return null;
  return { versionId: known.id, failedSymbols: [...new Set(failed.map((o) => o.symbol))].sort() };
}

export type ModelChanged = DeskEventOf<'model-changed'>;
/** How the library and the following announce a change (the desk's events). */
export type AnnounceModelChange = (event: ModelChanged) => void;

/**
 * What a save, an assign or an unassign changed, as the screens show it: the models' lines and
 * each strategy as it follows now. Made once the change is stored.
 */
export function modelChanged(
  store: Store,
  what: {
    change: ModelChanged['change'];
    profileId: string | null;
    revision: StoredRevision | null;
    modelIds: readonly string[];
    strategies: readonly { profileId: string; strategyId: string }[];
  },
): ModelChanged {
  const counts = store.models.counts(what.profileId ?? undefined);
  const rows = new Map<string, StoredModelRow[]>();
  const rowsOf = (revisionId: string) => {
    const known = rows.get(revisionId);
    if (known) return known;
    const read = store.models.rows(revisionId);
    rows.set(revisionId, read);
    return read;
  };
  return {
    type: 'model-changed',
    change: what.change,
    profileId: what.profileId,
    revision: what.revision ? revisionView(what.revision) : null,
    models: [...new Set(what.modelIds)].flatMap((id) => {
      const model = store.models.get(id);
      return model ? [modelSummaryView(store, model, counts)] : [];
    }),
    strategies: what.strategies.map(({ profileId, strategyId }) => {
      const assignment = store.models.assignmentOf(profileId, strategyId);
      return {
        profileId,
        strategyId,
        follows: assignment ? followerView(store, assignment, rowsOf) : null,
      };
    }),
  };
}
