import type { DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import type { ServiceClient } from '../api';
import type { ExecutionJournal } from '../execution/execute';
import type { Store } from '../store';
import {
  confirmedRequest,
  predictionOutcome,
  prepareExecution,
  type ConfirmationDeps,
} from '../execution/confirmation';
import { notFound } from './errors';
import { acknowledgeFailure } from '../versions/failures';
import type { Emit } from './events';
import type { Tracking } from '../tracking/tracking';
import type { UnexecutedVersions } from '../versions/unexecuted';
import type { VersionImport } from '../versions/import';
import { journalEntryView, versionDetail, versionSummary } from '../views/strategy';

export interface VersionServices extends ConfirmationDeps {
  /** The whole store: executions and deletions are recorded in the activity log. */
  store: Store;
  tracking: Pick<Tracking, 'isFollowing' | 'detailFields' | 'checkNow'>;
  versionImport: VersionImport;
  executions: ExecutionJournal;
  /** Unexecuted versions in the way: remembered when named, deleted only once shown. */
  unexecuted: UnexecutedVersions;
  emit: Emit;
}

export function versionHandlers(services: VersionServices): DeskHandlers['versions'] {
  const { store, connections, tracking, versionImport, executions, unexecuted, emit } = services;
  const detail = (profileId: string, versionId: string) => {
    const stored = store.versions.get(profileId, versionId, { orders: true, positions: true });
    if (!stored) throw notFound('This version');
    return {
      ...versionDetail(
        stored,
        tracking.isFollowing(versionId),
        tracking.detailFields(profileId, versionId),
      ),
      failureAcknowledgedAt: store.failures.acknowledgedAt(profileId, versionId),
    };
  };
  const client = (profileId: string) => ({
    executeVersion: (...args: Parameters<ServiceClient['executeVersion']>) =>
      connections.call(profileId, (c) => c.executeVersion(...args)),
  });
  /** Only an execution whose outcome nobody knows may be sent again or dismissed. */
  const unknownOutcome = (journalId: string) => {
    const entry = store.journal.get(journalId);
    if (!entry) throw notFound('This execution');
    if (entry.state !== 'unknown') {
      throw new DeskError({
        kind: 'execution-blocked',
        message: `This execution is ${entry.state}: only one whose outcome is unknown can be sent again or dismissed.`,
        details: { state: entry.state },
      });
    }
    return entry;
  };
  /** The journal changed: the event carries what versions.journal would answer now. */
  const announceJournal = (profileId: string) =>
    emit({
      type: 'journal-changed',
      profileId,
      inFlight: executions.inFlight(profileId).map(journalEntryView),
    });

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
    async execute({ draftId, confirmation }) {
      const draft = store.drafts.get(draftId);
      if (!draft) throw notFound('This draft');
      const { profileId, strategyId } = draft;
      // Predicted and recorded before sending; compared with the service's answer after a 202.
      const { body, predictionId, targetUnconfirmed, prediction } = await confirmedRequest(
        services,
        draft,
        confirmation,
      );
      try {
        const outcome = await executions.execute(client(profileId), {
          profileId,
          strategyId,
          draftId,
          againAfter: confirmation?.againAfter ?? null,
          body,
          // Kept in the execution's activity entry: what the manager saw and acknowledged.
          confirmation: {
            predictionId,
            confirmed: confirmation !== undefined,
            acknowledgedStale: confirmation?.acknowledgedStale ?? false,
            targetUnconfirmed,
            doubts: prediction.doubts,
            acknowledgementNeeded: prediction.needsAcknowledgement,
          },
        });
        // The prediction was linked when the execution was journaled and answered with the 202.
        return { journalId: outcome.entry.id, version: detail(profileId, outcome.version.id) };
      } catch (error) {
        // A version in the way, named by the service: the screens show it from now on.
        unexecuted.noteRefusal(profileId, strategyId, error);
        throw error;
      } finally {
        announceJournal(profileId);
      }
    },
    async retryExecution({ journalId }) {
      const entry = unknownOutcome(journalId);
      try {
        const outcome = await executions.retry(client(entry.profileId), journalId);
        return { journalId, version: detail(entry.profileId, outcome.version.id) };
      } catch (error) {
        unexecuted.noteRefusal(entry.profileId, entry.strategyId, error);
        throw error;
      } finally {
        announceJournal(entry.profileId);
      }
    },
    async dismissExecution({ journalId }) {
      unknownOutcome(journalId);
      const entry = executions.dismiss(journalId);
      announceJournal(entry.profileId);
      return { ok: true as const };
    },
    async prediction({ profileId, versionId }) {
      return predictionOutcome(services, profileId, versionId);
    },
    async journal({ profileId }) {
      return executions.inFlight(profileId).map(journalEntryView);
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
      await tracking.checkNow({
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
