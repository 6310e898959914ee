import type { DeskHandlers } from '../../../shared/contract';
import { validateDraft } from '../../../shared/draft';
import type { DraftSummary as DraftSummaryView } from '../../../shared/views';
import type { DraftRow, DraftSummary } from '../store';
import type { DeskContext } from './context';
import { notFound } from './errors';
import { currentTargetOf } from './views';

export function draftHandlers(ctx: DeskContext): DeskHandlers['drafts'] {
  const summary = (d: DraftSummary): DraftSummaryView => {
    const rows = ctx.store.drafts.get(d.id)?.rows ?? [];
    const target = currentTargetOf(ctx.store, d.profileId, d.strategyId);
    return {
      id: d.id,
      strategyId: d.strategyId,
      name: d.name,
      rowCount: d.rowCount,
      valid: validateDraft(rows, { previousTarget: target?.positions ?? [] }).valid,
      updatedAt: d.updatedAt,
    };
  };
  const existing = (draftId: string) => {
    const draft = ctx.store.drafts.get(draftId);
    if (!draft) throw notFound('This draft');
    return draft;
  };
  /** The rows a new draft starts from: nothing, the current target, or the symbols held. */
  const startingRows = (
    profileId: string,
    strategyId: string,
    start: 'empty' | 'target' | 'holdings',
  ): DraftRow[] => {
    if (start === 'target') {
      return (currentTargetOf(ctx.store, profileId, strategyId)?.positions ?? []).map((p) => ({
        symbol: p.symbol,
        weight: p.weight,
        locked: false,
      }));
    }
    if (start === 'holdings') {
      return ctx.store.strategies
        .holdings(profileId, strategyId)
        .map((h) => ({ symbol: h.symbol, weight: '0', locked: false }));
    }
    return [];
  };

  return {
    async list({ profileId, strategyId }) {
      return ctx.store.drafts.listForStrategy(profileId, strategyId).map(summary);
    },
    async create({ profileId, strategyId, name, start }) {
      if (!ctx.store.strategies.get(profileId, strategyId)) throw notFound('This strategy');
      const draft = ctx.store.drafts.create({
        profileId,
        strategyId,
        name,
        rows: startingRows(profileId, strategyId, start),
      });
      return {
        id: draft.id,
        profileId,
        strategyId,
        name: draft.name,
        rows: draft.rows,
        updatedAt: draft.updatedAt,
      };
    },
    async get({ draftId }) {
      const d = existing(draftId);
      return {
        id: d.id,
        profileId: d.profileId,
        strategyId: d.strategyId,
        name: d.name,
        rows: d.rows,
        updatedAt: d.updatedAt,
      };
    },
    async saveRows({ draftId, rows }) {
      existing(draftId);
      ctx.store.drafts.saveRows(draftId, rows);
      return summary(existing(draftId));
    },
    async rename({ draftId, name }) {
      existing(draftId);
      ctx.store.drafts.rename(draftId, name);
      return summary(existing(draftId));
    },
    async remove({ draftId }) {
      if (!ctx.store.drafts.delete(draftId)) throw notFound('This draft');
      return { ok: true as const };
    },
  };
}
