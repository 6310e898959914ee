import { randomUUID } from 'node:crypto';
import type { ItemReview } from '../../../shared/batches/views';
import type { ExclusionKind } from '../../../shared/batches/states';
import { InvalidDraftError } from '../../../shared/draft';
import type { DraftRowInput } from '../../../shared/draft';
import { normalizeSymbol } from '../../../shared/draft/rules';
import { DeskError } from '../../../shared/errors';
import { knownTargetOf } from '../../../shared/known-target';
import type { ExecutePreview } from '../../../shared/views';
import { isServiceError } from '../api';
import { notFound, toDeskError } from '../errors';
import { modelNotFound } from '../models/library';
import { modelRowsWithCash, restrictedLine } from '../restrictions/batch-lines';
import type { NewBatchItem, Store, StoredBatch } from '../store';

/**
 * One review for many strategies (docs/batches.md): a model revision's rows become each
 * strategy's request (every symbol of its known target or holdings the model leaves out at 0),
 * each strategy is read fresh (all asked at once: the profile's request budget, api/budget.ts,
 * bounds how many are at the service) and previewed through the one
 * execution flow's `prepare`, and the batch is stored with every strategy either ready (its plan
 * key, what it does) or excluded with the reason. Nothing is sent here.
 */

export interface ReviewDeps {
  store: Store;
  /** The one execution flow's review of one strategy (execution/execute.ts). */
  prepare(target: {
    profileId: string;
    strategyId: string;
    rows: DraftRowInput[];
  }): Promise<ExecutePreview>;
}

export interface ReviewRequest {
  profileId: string;
  revisionId: string;
  strategyIds: readonly string[];
  /** Sending's concurrency, chosen now or when executing (default 2). */
  concurrency?: number;
  /** "Apply the model with target cash X %" (restrictions/batch-lines.ts). */
  targetCash?: string | undefined;
}

const EXECUTE_SCOPE = 'strategy_versions:execute';

/** The model's rows, then every symbol of the known target or the holdings it leaves out, at 0. */
export function rowsFor(
  store: Pick<Store, 'versions' | 'strategies'>,
  profileId: string,
  strategyId: string,
  modelRows: readonly { symbol: string; weight: string }[],
): DraftRowInput[] {
  const rows: DraftRowInput[] = modelRows.map((r) => ({ symbol: r.symbol, weight: r.weight }));
  const named = new Set(rows.map((r) => normalizeSymbol(r.symbol)));
  const known = store.versions.latestExecuted(profileId, strategyId, { orders: true });
  const leftOut = [
    ...(known ? knownTargetOf(known).positions.map((p) => p.symbol) : []),
    ...store.strategies.holdings(profileId, strategyId).map((h) => h.symbol),
  ];
  for (const symbol of leftOut) {
    const s = normalizeSymbol(symbol);
    if (named.has(s)) continue;
    named.add(s);
    rows.push({ symbol: s, weight: '0' });
  }
  return rows;
}

/** The review line of one strategy, from its confirmation. */
export function itemReviewOf(preview: ExecutePreview): ItemReview {
  const from = (p: ExecutePreview['positions'][number]) => ({
    symbol: p.symbol,
    from: p.oldWeight ?? '0',
    to: p.weight,
  });
  const warnings: string[] = [];
  if (preview.doubts.includes('unknown'))
    warnings.push(
      'No executed version of this strategy is known here: the service may act on a target this app does not know.',
    );
  if (preview.doubts.includes('stale'))
    warnings.push(
      'The holdings do not fit the known target: the strategy may have been changed elsewhere.',
    );
  if (preview.doubts.includes('unconfirmed'))
    warnings.push("The service no longer knows the known target's version.");
  if (preview.possiblyTargeted.length > 0)
    warnings.push(`Possibly targeted elsewhere: ${preview.possiblyTargeted.join(', ')}.`);
  return {
    target: preview.target,
    adds: preview.positions.filter((p) => p.effect === 'add').map(from),
    changes: preview.positions.filter((p) => p.effect === 'change').map(from),
    removes: preview.positions
      .filter((p) => p.effect === 'remove' || p.effect === 'sell-held')
      .map(from),
    uncertain: preview.positions.filter((p) => p.effect === 'uncertain').map(from),
    sellsWhole: preview.positions
      .filter((p) => p.sellsAll)
      .map((p) => ({ symbol: p.symbol, quantity: p.heldQuantity })),
    oldCash: preview.oldCash,
    newCash: preview.newCash,
    doubts: [...preview.doubts],
    warnings,
  };
}

type Line = Omit<NewBatchItem, 'position'>;

const excluded = (
  strategyId: string,
  strategyName: string,
  rows: DraftRowInput[],
  kind: ExclusionKind,
  reason: string,
  preview: ExecutePreview | null = null,
): Line => ({
  strategyId,
  strategyName,
  state: 'excluded',
  exclusionKind: kind,
  reason,
  rows: JSON.stringify(rows),
  planKey: null,
  needsAcknowledgement: false,
  review: preview ? JSON.stringify(itemReviewOf(preview)) : null,
  preview: preview ? JSON.stringify(preview) : null,
});

/** Why a strategy's preview failed, as an exclusion. */
function exclusionOfFailure(error: unknown): { kind: ExclusionKind; reason: string } {
  if (error instanceof InvalidDraftError) {
    const liquidateOnly = error.rowErrors.some((e) => e.code === 'liquidate-only-increase');
    return liquidateOnly
      ? {
          kind: 'liquidate-only',
          // One line per row refused, as the review shows it.
          reason: `Liquidate-only, and the model raises a weight:\n${error.messages.join('\n')}`,
        }
      : { kind: 'invalid', reason: error.messages.join(' ') };
  }
  if (isServiceError(error, 'forbidden'))
    return {
      kind: 'scope-missing',
      reason: `The service refused to read it (a scope is missing): ${toDeskError(error).message}`,
    };
  return { kind: 'unreadable', reason: `It could not be read: ${toDeskError(error).message}` };
}

export class BatchReview {
  constructor(private readonly deps: ReviewDeps) {}

  async review(request: ReviewRequest): Promise<StoredBatch> {
    const { store } = this.deps;
    const { profileId } = request;
    const profile = store.profiles.get(profileId);
    if (!profile) throw notFound('This profile');
    const revision = store.models.revision(request.revisionId);
    if (!revision) throw modelNotFound('This model revision');
    const { rows: modelRows, targetCash } = modelRowsWithCash(
      store.models.rows(revision.id),
      request.targetCash,
    );
    const ids = [...new Set(request.strategyIds)];
    if (ids.length === 0)
      throw new DeskError({
        kind: 'invalid-input',
        message: 'Choose at least one strategy to review.',
      });
    const missing = ids.filter((id) => !store.strategies.get(profileId, id));
    if (missing.length > 0)
      throw new DeskError({
        kind: 'not-found',
        message: `Not in this profile: ${missing.join(', ')}. Nothing was reviewed.`,
      });
    // A stable order: by name, then id. Sending follows it.
    const strategies = ids
      .map((id) => store.strategies.get(profileId, id)!)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
    const scopes = profile.grantedScopes;
    const scopeMissing = scopes !== null && !scopes.includes(EXECUTE_SCOPE);

    const lines = await Promise.all(
      strategies.map(async (s) => {
        const rows = rowsFor(store, profileId, s.id, modelRows);
        if (scopeMissing)
          return excluded(
            s.id,
            s.name,
            rows,
            'scope-missing',
            `This profile's client was not granted ${EXECUTE_SCOPE}: ask for the scope, then review again.`,
          );
        const blocking = blockingExecution(store, profileId, s.id);
        if (blocking) return excluded(s.id, s.name, rows, 'blocked', blocking);
        const inTheWay = store.unexecuted.listForStrategy(profileId, s.id);
        if (inTheWay.length > 0)
          return excluded(
            s.id,
            s.name,
            rows,
            'unexecuted-version',
            `An unexecuted version (${inTheWay.map((v) => v.versionId).join(', ')}) is in the way: open the strategy to see it and delete it there, then review again.`,
          );
        let preview: ExecutePreview;
        try {
          preview = await this.deps.prepare({ profileId, strategyId: s.id, rows });
        } catch (error) {
          const why = exclusionOfFailure(error);
          return excluded(s.id, s.name, rows, why.kind, why.reason);
        }
        const name = preview.strategy.name;
        if (preview.strategy.runningVersionId !== null)
          return excluded(
            s.id,
            name,
            rows,
            'rebalance-running',
            `A rebalance is still running (version ${preview.strategy.runningVersionId}): review again once it has ended.`,
            preview,
          );
        const known = preview.strategy.unexecutedVersions ?? [];
        if (known.length > 0)
          return excluded(
            s.id,
            name,
            rows,
            'unexecuted-version',
            `An unexecuted version (${known.map((v) => v.versionId).join(', ')}) is in the way: open the strategy to see it and delete it there, then review again.`,
            preview,
          );
        const restricted = restrictedLine(store, profileId, s.id, rows);
        if (restricted) return excluded(s.id, name, rows, 'restricted', restricted, preview);
        if (preview.changesNothing)
          return excluded(
            s.id,
            name,
            rows,
            'in-sync',
            'It holds this target already (in sync): nothing to send.',
            preview,
          );
        return {
          strategyId: s.id,
          strategyName: name,
          state: 'ready',
          exclusionKind: null,
          reason: null,
          rows: JSON.stringify(rows),
          planKey: preview.planKey,
          needsAcknowledgement: preview.needsAcknowledgement,
          review: JSON.stringify({ ...itemReviewOf(preview), targetCash }),
          preview: JSON.stringify(preview),
        } satisfies Line;
      }),
    );

    const items = lines.map((line, position) => ({ ...line, position }));
    return store.batches.create(
      {
        id: randomUUID(),
        profileId,
        modelId: revision.modelId,
        revisionId: revision.id,
        concurrency: request.concurrency ?? 2,
        sellsWhole: JSON.stringify(sellsWholeOf(items)),
      },
      items,
    );
  }
}

/**
 * Why an earlier execution of the strategy keeps this one from going (its outcome unknown, or
 * still in flight): the send would skip it, so the review excludes it and says why.
 */
function blockingExecution(
  store: Pick<Store, 'journal'>,
  profileId: string,
  strategyId: string,
): string | null {
  const entry = store.journal
    .listForStrategy(profileId, strategyId)
    .find((e) => e.state === 'unknown' || e.state === 'pending' || e.state === 'sent');
  if (!entry) return null;
  return entry.state === 'unknown'
    ? `The outcome of its previous execution is unknown (journal entry ${entry.id}): retry it with the same key or dismiss it from the strategy, then review again.`
    : `Another execution of this strategy is in flight (journal entry ${entry.id}): review again once its answer came.`;
}

/** "sells TSLA whole in 14 strategies": per symbol, the ready strategies that sell it whole. */
export function sellsWholeOf(items: readonly NewBatchItem[]) {
  const bySymbol = new Map<string, string[]>();
  for (const item of items) {
    if (item.state !== 'ready' || item.review === null) continue;
    const review = JSON.parse(item.review) as ItemReview;
    for (const sale of review.sellsWhole)
      bySymbol.set(sale.symbol, [...(bySymbol.get(sale.symbol) ?? []), item.strategyName]);
  }
  return [...bySymbol]
    .map(([symbol, names]) => ({ symbol, strategies: names.length, names }))
    .sort((a, b) => b.strategies - a.strategies || (a.symbol < b.symbol ? -1 : 1));
}
