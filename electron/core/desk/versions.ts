import type { DeskHandlers } from '../../../shared/contract';
import { prepareExecution, type ConfirmationDeps } from '../execution/confirmation';
import type { Execution } from '../execution/execute';
import type { Recovery } from '../execution/recovery';
import { journalEntryView, versionDetail, versionSummary } from '../../../shared/version-views';
import type { Store } from '../store';
import type { Follower } from '../tracking/tracker';
import { acknowledgeFailure } from '../versions/failures';
import type { VersionImport } from '../versions/import';
import type { UnexecutedVersions } from '../versions/unexecuted';
import { predictionOutcome } from '../views/version';
import { notFound } from '../errors';

export interface VersionServices extends ConfirmationDeps {
  /** The whole store: deletions are recorded in the activity log. */
  store: Store;
  /** What following a version says of it, and "Check now" (tracking/tracker.ts). */
  tracker: Pick<Follower, 'followed' | 'checkNow'>;
  versionImport: VersionImport;
  execution: Execution;
  /** Retry and dismiss of an execution whose outcome is unknown. */
  recovery: Recovery;
  /** Unexecuted versions in the way: remembered when named, deleted only once shown. */
  unexecuted: UnexecutedVersions;
}

export function versionHandlers(services: VersionServices): DeskHandlers['versions'] {
  const { store, tracker, versionImport, execution, recovery, unexecuted } = services;
  const detail = (profileId: string, versionId: string) => {
    const stored = store.versions.get(profileId, versionId, { orders: true, positions: true });
    if (!stored) throw notFound('This version');
    return {
      ...versionDetail(
        stored,
        tracker.followed(versionId),
        store.versions.statusSeen(profileId, versionId),
      ),
      failureAcknowledgedAt: store.failures.acknowledgedAt(profileId, versionId),
    };
  };
  return {
    async list({ profileId, strategyId }) {
      return store.versions.listForStrategy(profileId, strategyId).map(versionSummary);
    },
    async get({ profileId, strategyId, versionId }) {
      const d = detail(profileId, versionId);
      if (d.strategyId !== strategyId) throw notFound('This version');
      return d;
    },
    /** Imports a version by id: the interface has no listing, so the history is what the app knows. */
    async import({ profileId, strategyId, versionId }) {
      await versionImport.import(profileId, strategyId, versionId);
      return detail(profileId, versionId);
    },
    prepareExecute: ({ draftId }) => prepareExecution(services, draftId),
    /** Executes a draft (execution/execute.ts): the answer is the version it became. */
    async execute({ draftId, confirmation }) {
      const { entry, version } = await execution.executeDraft(draftId, confirmation);
      return { journalId: entry.id, version: detail(entry.profileId, version.id) };
    },
    // Only an execution whose outcome nobody knows: Recovery refuses the others, saying why.
    async retryExecution({ journalId }) {
      const outcome = await recovery.retry(journalId);
      return { journalId, version: detail(outcome.entry.profileId, outcome.version.id) };
    },
    async dismissExecution({ journalId }) {
      recovery.dismiss(journalId);
      return { ok: true as const };
    },
    async prediction({ profileId, versionId }) {
      return predictionOutcome(store, profileId, versionId);
    },
    async journal({ profileId }) {
      return execution.inFlight(profileId).map(journalEntryView);
    },
    async acknowledgeFailure(ref) {
      acknowledgeFailure(store, ref, services.now());
      return detail(ref.profileId, ref.versionId);
    },
    async checkNow({ profileId, strategyId, versionId }) {
      const stored = store.versions.get(profileId, versionId);
      if (!stored || stored.strategy_id !== strategyId) throw notFound('This version');
      // An unexecuted version has no rebalance to follow.
      if (stored.executed_at === null) return detail(profileId, versionId);
      await tracker.checkNow({
        profileId,
        strategyId,
        versionId,
        location: stored.location,
        status: stored.status,
      });
      return detail(profileId, versionId);
    },
    prepareDelete: ({ profileId, strategyId, versionId, draftId }) =>
      unexecuted.prepareDelete({ profileId, strategyId, versionId }, draftId),
    async delete({ profileId, strategyId, versionId, confirmation }) {
      await unexecuted.delete({ profileId, strategyId, versionId }, confirmation);
      return { ok: true as const };
    },
  };
}
