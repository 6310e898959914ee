import type { DeskHandlers } from '../../../shared/contract';
import { validateDraft } from '../../../shared/draft';
import type { DraftSummary as DraftSummaryView } from '../../../shared/views';
import type { DraftRow, DraftSummary, Store } from '../store';
import { DeskError } from '../../../shared/errors';
import { notFound } from '../errors';
import { currentTargetOf } from '../strategies/targets';
import type { ViewStore } from '../views/strategy';

export interface DraftServices {
  store: ViewStore & Pick<Store, 'drafts' | 'journal'>;
}

export function draftHandlers({ store }: DraftServices): DeskHandlers['drafts'] {
  /** What a draft of the strategy is judged against: its current target, liquidate-only. */
  const judgedAgainst = (profileId: string, strategyId: string) => ({
    target: currentTargetOf(store, profileId, strategyId),
    liquidateOnly: store.strategies.get(profileId, strategyId)?.is_liquidate_only,
  });
  /** The list's row for a draft; `valid` is judged against the strategy's current target. */
  const summary = (
    d: DraftSummary,
    rows: readonly DraftRow[],
    { target, liquidateOnly } = judgedAgainst(d.profileId, d.strategyId),
  ): DraftSummaryView => ({
    id: d.id,
    strategyId: d.strategyId,
    name: d.name,
    rowCount: d.rowCount,
    valid: validateDraft(rows, {
      previousTarget: target?.positions ?? [],
      liquidateOnly,
      targetUnknown: target === null,
    }).valid,
    updatedAt: d.updatedAt,
    executedVersionId: executedVersionOf(d.id),
  });
  /** The version the draft last became, if it was executed. */
  const executedVersionOf = (draftId: string) => store.journal.executedVersionOf(draftId);
  const existing = (draftId: string) => {
    const draft = store.drafts.get(draftId);
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
      const target = currentTargetOf(store, profileId, strategyId);
      // An unknown target is not an empty one: starting from it would silently start empty.
      if (target === null)
        throw targetUnknownForDraft(store.strategies.holdings(profileId, strategyId).length);
      return target.positions.map((p) => ({
        symbol: p.symbol,
        weight: p.weight,
        locked: false,
      }));
    }
    if (start === 'holdings') {
      return store.strategies
        .holdings(profileId, strategyId)
        .map((h) => ({ symbol: h.symbol, weight: '0', locked: false }));
    }
    return [];
  };

  return {
    async list({ profileId, strategyId }) {
      // The strategy and every draft's rows read once, not once per draft.
      const against = judgedAgainst(profileId, strategyId);
      const rows = store.drafts.rowsForStrategy(profileId, strategyId);
      return store.drafts
        .listForStrategy(profileId, strategyId)
        .map((d) => summary(d, rows.get(d.id) ?? [], against));
    },
    async create({ profileId, strategyId, name, start }) {
      if (!store.strategies.get(profileId, strategyId)) throw notFound('This strategy');
      const draft = store.drafts.create({
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
        executedVersionId: executedVersionOf(d.id),
      };
    },
    // Autosave calls this after every pause in typing: one write, then one read for the answer.
    async saveRows({ draftId, rows }) {
      if (!store.drafts.saveRows(draftId, rows)) throw notFound('This draft');
      const saved = existing(draftId);
      return summary(saved, saved.rows);
    },
    async rename({ draftId, name }) {
      if (!store.drafts.rename(draftId, name)) throw notFound('This draft');
      const renamed = existing(draftId);
      return summary(renamed, renamed.rows);
    },
    async remove({ draftId }) {
      if (!store.drafts.delete(draftId)) throw notFound('This draft');
      return { ok: true as const };
    },
  };
}

/** "From the current target" when no executed version of the strategy is known here. */
function targetUnknownForDraft(held: number): DeskError {
  return new DeskError({
    kind: 'invalid-input',
    message:
      'The current target of this strategy is not known here: no executed version of it was ' +
      'created or imported in this app, so a draft cannot start from it. ' +
      (held > 0
        ? `Start from the holdings instead (${held} held ${held === 1 ? 'symbol' : 'symbols'} at weight 0), `
        : 'It holds nothing either: start an empty draft, ') +
      'or import the latest executed version by id (Versions tab) first.',
  });
}
