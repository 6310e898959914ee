import type { DeskHandlers } from '../../../shared/contract';
import type { ServiceClient } from '../api';
import {
  confirmedRequest,
  predictionOutcome,
  prepareExecution,
  settlePrediction,
  settleRetry,
} from './confirmation';
import type { DeskContext } from './context';
import { notFound } from './errors';
import { journalEntryView, versionDetail, versionSummary } from './views';

export function versionHandlers(ctx: DeskContext): DeskHandlers['versions'] {
  const detail = (profileId: string, versionId: string) => {
    const stored = ctx.store.versions.get(profileId, versionId, { orders: true, positions: true });
    if (!stored) throw notFound('This version');
    return versionDetail(stored, ctx.tracker.isTracking(versionId));
  };
  const client = (profileId: string) => ({
    executeVersion: (...args: Parameters<ServiceClient['executeVersion']>) =>
      ctx.connections.call(profileId, (c) => c.executeVersion(...args)),
  });
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
      const version = await ctx.connections.call(profileId, (c) =>
        c.getVersion(strategyId, versionId, { orders: true, positions: true }),
      );
      ctx.store.versions.upsert(profileId, version, { origin: 'imported', syncedAt: ctx.now() });
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
      const entry = ctx.store.journal.get(journalId);
      if (!entry) throw notFound('This execution');
      try {
        const outcome = await ctx.executions.retry(client(entry.profileId), journalId);
        settleRetry(ctx, journalId, outcome.version);
        return { journalId, version: detail(entry.profileId, outcome.version.id) };
      } finally {
        announceJournal(entry.profileId);
      }
    },
    async dismissExecution({ journalId }) {
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
    async delete({ profileId, strategyId, versionId }) {
      await ctx.connections.call(profileId, (c) => c.deleteVersion(strategyId, versionId));
      ctx.store.versions.remove(profileId, versionId);
      return { ok: true as const };
    },
  };
}
