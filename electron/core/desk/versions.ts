import type { DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import { isServiceError, type ServiceClient } from '../api';
import {
  noteExecutionConfirmation,
  recordVersionDeleted,
  recordVersionImported,
} from '../activity';
import {
  confirmedRequest,
  predictionOutcome,
  prepareExecution,
  settlePrediction,
  settleRetry,
} from './confirmation';
import type { DeskContext } from './context';
import { notFound } from './errors';
import { storeVersionRead, trackingFields } from './tracking';
import { journalEntryView, versionDetail, versionSummary } from './views';

export function versionHandlers(ctx: DeskContext): DeskHandlers['versions'] {
  const detail = (profileId: string, versionId: string) => {
    const stored = ctx.store.versions.get(profileId, versionId, { orders: true, positions: true });
    if (!stored) throw notFound('This version');
    return versionDetail(
      stored,
      ctx.tracker.isTracking(versionId),
      trackingFields(ctx.store, ctx.tracker, profileId, versionId),
    );
  };
  const client = (profileId: string) => ({
    executeVersion: (...args: Parameters<ServiceClient['executeVersion']>) =>
      ctx.connections.call(profileId, (c) => c.executeVersion(...args)),
  });
  /** Only an execution whose outcome nobody knows may be sent again or dismissed. */
  const unknownOutcome = (journalId: string) => {
    const entry = ctx.store.journal.get(journalId);
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
  const announceJournal = (profileId: string) => ctx.emit({ type: 'journal-changed', profileId });

  return {
    async list({ profileId, strategyId }) {
      return ctx.store.versions.listForStrategy(profileId, strategyId).map(versionSummary);
    },
    async get({ profileId, strategyId, versionId }) {
      const d = detail(profileId, versionId);
      if (d.strategyId !== strategyId) throw notFound('This version');
      return d;
    },
    /** Imports a version by id: the interface has no listing, so the history is what the app knows. */
    async import({ profileId, strategyId, versionId }) {
      const version = await ctx.connections
        .call(profileId, (c) =>
          c.getVersion(strategyId, versionId, { orders: true, positions: true }),
        )
        .catch((error: unknown) => {
          // Gone at the service: a copy kept here would be a phantom in the history.
          if (isServiceError(error) && error.kind === 'not_found')
            ctx.store.versions.remove(profileId, versionId);
          throw error;
        });
      recordVersionImported(ctx.store, profileId, version, () =>
        storeVersionRead(ctx.store, profileId, version, {
          origin: 'imported',
          syncedAt: ctx.now(),
        }),
      );
      if (version.executed_at !== null) {
        ctx.tracker.track({
          profileId,
          strategyId,
          versionId,
          location: null,
          status: version.status,
        });
      }
      return detail(profileId, versionId);
    },
    prepareExecute: ({ draftId }) => prepareExecution(ctx, draftId),
    async execute({ draftId, confirmation }) {
      const draft = ctx.store.drafts.get(draftId);
      if (!draft) throw notFound('This draft');
      const { profileId, strategyId } = draft;
      // Predicted and recorded before sending; compared with the service's answer after a 202.
      const { body, predictionId } = await confirmedRequest(ctx, draft, confirmation);
      const sentBody = JSON.stringify(body);
      noteExecutionConfirmation(ctx.store, draftId, {
        predictionId,
        confirmed: confirmation !== undefined,
        acknowledgedStale: confirmation?.acknowledgedStale ?? false,
      });
      try {
        const outcome = await ctx.executions.execute(client(profileId), {
          profileId,
          strategyId,
          draftId,
          body,
        });
        settlePrediction(ctx, predictionId, outcome.entry.id, outcome.version);
        return { journalId: outcome.entry.id, version: detail(profileId, outcome.version.id) };
      } catch (error) {
        // An unclear outcome stays in the journal: a retry's 202 is compared with this prediction.
        const entry = ctx.executions
          .inFlight(profileId)
          .find((e) => e.draftId === draftId && e.requestBody === sentBody);
        if (entry) settlePrediction(ctx, predictionId, entry.id, null);
        throw error;
      } finally {
        announceJournal(profileId);
      }
    },
    async retryExecution({ journalId }) {
      const entry = unknownOutcome(journalId);
      try {
        const outcome = await ctx.executions.retry(client(entry.profileId), journalId);
        settleRetry(ctx, journalId, outcome.version);
        return { journalId, version: detail(entry.profileId, outcome.version.id) };
      } finally {
        announceJournal(entry.profileId);
      }
    },
    async dismissExecution({ journalId }) {
      unknownOutcome(journalId);
      const entry = ctx.executions.dismiss(journalId);
      announceJournal(entry.profileId);
      return { ok: true as const };
    },
    async prediction({ profileId, versionId }) {
      return predictionOutcome(ctx, profileId, versionId);
    },
    async journal({ profileId }) {
      return ctx.executions.inFlight(profileId).map(journalEntryView);
    },
    async checkNow({ profileId, strategyId, versionId }) {
      const stored = ctx.store.versions.get(profileId, versionId);
      if (!stored || stored.strategy_id !== strategyId) throw notFound('This version');
      // An unexecuted version has no rebalance to follow.
      if (stored.executed_at === null) return detail(profileId, versionId);
      await ctx.tracker.checkNow({
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
      await ctx.connections
        .call(profileId, (c) => c.deleteVersion(strategyId, versionId))
        .catch((error: unknown) => {
          if (!(isServiceError(error) && error.kind === 'not_found')) throw error;
          goneAlready = true;
        });
      recordVersionDeleted(ctx.store, { profileId, strategyId, versionId, goneAlready }, () =>
        ctx.store.versions.remove(profileId, versionId),
      );
      return { ok: true as const };
    },
  };
}
