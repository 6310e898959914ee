import type {
  ModelDetail,
  ModelSummary,
  RevisionDetail,
  RevisionSummary,
} from '../../../shared/models/views';
import type { Store, StoredModel, StoredRevision } from '../store';

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
