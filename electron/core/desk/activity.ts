import type { DeskHandlers } from '../../../shared/contract';
import type { ActivityChecks } from '../activity/checks';
import { payloadOf, summaryOf } from '../activity/describe';
import { activitySummary } from '../views/activity';
import { detailOf } from '../activity/detail';
import { activityExportFile } from '../activity/export';
import type { Exports } from '../exports';
import type { ActivityRow } from '../store/repositories/activity';
import type { Store } from '../store';
import { notFound } from '../errors';

export interface ActivityHandlerDeps {
  store: Store;
  checks: ActivityChecks;
  exports: Exports;
  now(): string;
}

export function activityHandlers(deps: ActivityHandlerDeps): DeskHandlers['activity'] {
  const { store, checks } = deps;
  const summary = (row: ActivityRow) => activitySummary(store, row);
  /** The profile's name now, or as its last entry named it (a removed profile). */
  const profileNameOf = (profileId: string): string | null => {
    const name = store.profiles.get(profileId)?.name;
    if (name !== undefined) return name;
    const [last] = store.activity.page({ profileId }, 0, 1);
    return last ? summaryOf(last, null).profileName : null;
  };
  /** A batch entry's batch, while the store still has it. */
  const batchOf = (row: ActivityRow): string | null => {
    if (row.kind !== 'batch-reviewed' && row.kind !== 'batch-ended') return null;
    const { batchId } = payloadOf(row);
    return typeof batchId === 'string' && store.batches.get(batchId) ? batchId : null;
  };
  return {
    async list({ offset, limit, ...filter }) {
      return {
        total: store.activity.count(filter),
        entries: store.activity.page(filter, offset, limit).map(summary),
      };
    },
    async get({ seq }) {
      const row = store.activity.get(seq);
      if (!row) throw notFound('This activity entry');
      const refersTo = row.refers_to === null ? null : store.activity.get(row.refers_to);
      return {
        ...activitySummary(store, row, refersTo),
        ...detailOf(row, refersTo),
        linked: store.activity.referringTo(seq).map(summary),
        refersTo: refersTo ? summary(refersTo) : null,
        batchId: batchOf(row),
        previousHash: row.previous_hash,
        hash: row.hash,
      };
    },
    async verify() {
      return checks.run();
    },
    async lastCheck() {
      return checks.lastResult();
    },
    async removedProfiles() {
      return store.activity
        .chains()
        .filter((chain) => store.profiles.get(chain.profileId) === null)
        .map(({ profileId, entries, lastSeq }) => {
          const last = store.activity.get(lastSeq)!;
          return {
            profileId,
            profileName: summaryOf(last, null).profileName,
            entries,
            removedAt: last.kind === 'profile-removed' ? last.at : null,
          };
        });
    },
    export: ({ filter, format, exportId }) =>
      deps.exports.write(
        activityExportFile(
          store.activity,
          { filter, format, profileName: profileNameOf(filter.profileId) },
          deps.now(),
        ),
        exportId,
      ),
  };
}
