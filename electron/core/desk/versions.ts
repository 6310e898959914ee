import type { DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import { isServiceError, type ServiceClient } from '../api';
import type { ExecutionJournal } from '../execute';
import type { Store } from '../store';
import { recordVersionDeleted } from '../activity';
import {
  confirmedRequest,
  predictionOutcome,
  prepareExecution,
  type ConfirmationDeps,
} from './confirmation';
import { notFound } from './errors';
import type { Emit } from './events';
import type { Tracking } from './tracking';
import type { VersionImport } from './version-import';
import { journalEntryView, versionDetail, versionSummary } from './views';

export interface VersionServices extends ConfirmationDeps {
  /** The whole store: executions and deletions are recorded in the activity log. */
  store: Store;
  tracking: Pick<Tracking, 'isFollowing' | 'detailFields' | 'checkNow'>;
  versionImport: VersionImport;
  executions: ExecutionJournal;
  emit: Emit;
}

export function versionHandlers(services: VersionServices): DeskHandlers['versions'] {
  const { store, connections, tracking, versionImport, executions, emit } = services;
  const detail = (profileId: string, versionId: string) => {
    const stored = store.versions.get(profileId, versionId, { orders: true, positions: true });
    if (!stored) throw notFound('This version');
    return versionDetail(
      stored,
      tracking.isFollowing(versionId),
      tracking.detailFields(profileId, versionId),
    );
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
      const { body, predictionId, targetUnconfirmed } = await confirmedRequest(
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
          },
        });
        // The prediction was linked when the execution was journaled and answered with the 202.
        return { journalId: outcome.entry.id, version: detail(profileId, outcome.version.id) };
      } finally {
        announceJournal(profileId);
      }
    },
    async retryExecution({ journalId }) {
      const entry = unknownOutcome(journalId);
      try {
        const outcome = await executions.retry(client(entry.profileId), journalId);
        return { journalId, version: detail(entry.profileId, outcome.version.id) };
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
    async delete({ profileId, strategyId, versionId }) {
      // A 404 means the version is gone at the service (an earlier delete whose answer was lost,
      // or another client): the manager wanted it gone, so it leaves the history here too.
      let goneAlready = false;
      await connections
        .call(profileId, (c) => c.deleteVersion(strategyId, versionId))
        .catch((error: unknown) => {
          if (!(isServiceError(error) && error.kind === 'not_found')) throw error;
          goneAlready = true;
        });
      recordVersionDeleted(store, { profileId, strategyId, versionId, goneAlready }, () =>
        store.versions.remove(profileId, versionId),
      );
      return { ok: true as const };
    },
  };
}
