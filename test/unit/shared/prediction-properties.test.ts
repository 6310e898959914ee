import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planPositions } from '../../../electron/sandbox/engine';
import { comparePrediction, predictExecution } from '../../../shared/draft/prediction';
import { checkTarget } from '../../../shared/draft/target-check';
import type { HeldPosition, TargetPosition } from '../../../shared/draft/types';
import { validateDraft } from '../../../shared/draft/validate';

/**
 * The prediction against the sandbox's own position planner (the service's semantics), over
 * random holdings, known targets (the service's own, none, or an older one) and drafts.
 */
const RUNS = { numRuns: 600 };
const POOL = ['AAPL', 'MSFT', 'KO', 'PEP', 'XOM', 'JNJ', 'BRK.B', 'SPY', 'VYM'];
const weight = fc.constantFrom('0', '0.5', '1', '5', '7.25', '10', '12');
const targetArb = fc
  .uniqueArray(fc.record({ symbol: fc.constantFrom(...POOL), weight }), {
    selector: (p) => p.symbol,
    maxLength: 7,
  })
  .map((ps): TargetPosition[] => ps.filter((p) => p.weight !== '0'));
const holdingsArb = fc.uniqueArray(
  fc.record({ symbol: fc.constantFrom(...POOL), quantity: fc.constantFrom('0', '1', '3.5') }),
  { selector: (h) => h.symbol, maxLength: 7 },
);
const draftArb = fc
  .uniqueArray(fc.record({ symbol: fc.constantFrom(...POOL), weight }), {
    selector: (r) => r.symbol,
    minLength: 1,
    maxLength: 8,
  })
  .filter((rows) => rows.some((r) => r.weight !== '0'));
/** What the app knows: the service's target, nothing, or another (older) one. */
const knowledge = fc.oneof(
  fc.constant<'same'>('same'),
  fc.constant<null>(null),
  targetArb.map((t) => ({ stale: t })),
);

function serviceAnswer(previous: TargetPosition[], body: { symbol: string; weight: string }[]) {
  return planPositions(new Map(previous.map((p) => [p.symbol, p.weight])), body);
}

describe('execution prediction', () => {
  it('IGNORE and unchanged are what the service answers, and every held symbol at 0 is a sale', () => {
    fc.assert(
      fc.property(targetArb, holdingsArb, draftArb, knowledge, (service, held, rows, known) => {
        const target = known === 'same' ? service : known === null ? null : known.stale;
        const validation = validateDraft(rows, { previousTarget: target ?? [] });
        const prediction = predictExecution(validation, target, held);
        const answer = serviceAnswer(service, prediction.body.data.positions);
        const bySymbol = new Map(answer.map((p) => [p.symbol, p]));
        const heldSymbols = new Set(
          held.filter((h) => h.quantity !== '0').map((h: HeldPosition) => h.symbol),
        );
        const sent = new Map(prediction.body.data.positions.map((p) => [p.symbol, p.weight]));
        // The body names every held symbol and every known-target symbol.
        for (const symbol of heldSymbols) expect(sent.has(symbol)).toBe(true);
        for (const p of target ?? []) expect(sent.has(p.symbol)).toBe(true);
        for (const p of prediction.positions) {
          if (heldSymbols.has(p.symbol) && sent.get(p.symbol) === '0') {
            expect(p.sellsAll).toBe(true);
            expect(p.effect).toBe('sell-held');
          }
          if (target === null) expect(p.action).toBeNull();
          if (known === 'same' && (p.action === 'IGNORE' || p.effect === 'unchanged'))
            expect(bySymbol.get(p.symbol)?.action).toBe('IGNORE');
        }
        if (known === 'same') expect(comparePrediction(prediction.positions, answer)).toEqual([]);
      }),
      RUNS,
    );
  });

  it('a stale target that misleads a prediction shows in the holdings of a completed rebalance', () => {
    // The app knows `older`; the service's target is `latest`, fully filled (holdings = its
    // symbols). Wherever a definite prediction is wrong, the holdings do not fit `older`.
    fc.assert(
      fc.property(targetArb, targetArb, draftArb, (older, latest, rows) => {
        const held = latest.map((p) => ({ symbol: p.symbol, quantity: '2' }));
        const validation = validateDraft(rows, { previousTarget: older });
        const prediction = predictExecution(validation, older, held);
        const answer = serviceAnswer(latest, prediction.body.data.positions);
        const wrong = comparePrediction(prediction.positions, answer).filter(
          (d) => d.predicted?.action !== d.service?.action,
        );
        const check = checkTarget(
          {
            positions: older,
            orders: [],
            status: 'COMPLETE',
            executedAt: '2026-01-01T00:00:00.000001Z',
            insertedAt: '2026-01-01T00:00:00.000001Z',
          },
          held,
          '2026-01-01T00:00:00.000001Z',
        );
        const sameSymbols =
          new Set(older.map((p) => p.symbol)).size === new Set(latest.map((p) => p.symbol)).size &&
          older.every((p) => latest.some((q) => q.symbol === p.symbol));
        if (!sameSymbols) expect(check.fits).toBe(false);
        if (wrong.length > 0 && sameSymbols) {
          // Same symbols, other weights: only the strategy's update time can tell.
          const later = checkTarget(
            {
              positions: older,
              orders: [],
              status: 'COMPLETE',
              executedAt: '2026-01-01T00:00:00.000001Z',
              insertedAt: '2026-01-01T00:00:00.000001Z',
            },
            held,
            '2026-01-01T00:00:00.000002Z',
          );
          expect(later.fits).toBe(false);
        }
      }),
      RUNS,
    );
  });

  it('orders a microsecond apart are told apart', () => {
    const facts = {
      positions: [{ symbol: 'KO', weight: '10' }],
      orders: [{ symbol: 'KO', status: 'FILLED', updated_at: '2026-11-22T10:15:30.123456Z' }],
      status: 'COMPLETE' as const,
      executedAt: '2026-11-22T10:15:29.000000Z',
      insertedAt: '2026-11-22T10:15:29.000000Z',
    };
    const held = [{ symbol: 'KO', quantity: '1' }];
    expect(checkTarget(facts, held, '2026-11-22T10:15:30.123456Z').fits).toBe(true);
    expect(checkTarget(facts, held, '2026-11-22T10:15:30.123457Z').updatedAfter).toBe(true);
    // An IGNORED order explains a symbol that stayed held.
    const ignored = {
      ...facts,
      positions: [],
      orders: [{ ...facts.orders[0]!, status: 'IGNORED' }],
    };
    expect(checkTarget(ignored, held, '2026-11-22T10:15:30.123456Z').fits).toBe(true);
    // No order carries the end's time: a later update is a change, unless it is the one the
    // app saw as the version ended.
    const later = '2026-11-22T10:15:31.000000Z';
    expect(checkTarget(ignored, held, later).updatedAfter).toBe(true);
    expect(checkTarget({ ...ignored, settledAt: later }, held, later).fits).toBe(true);
    expect(
      checkTarget({ ...ignored, settledAt: later }, held, '2026-11-22T10:15:31.000001Z').fits,
    ).toBe(false);
    expect(checkTarget({ ...ignored, orders: [] }, held, facts.executedAt).heldNotInTarget).toEqual(
      ['KO'],
    );
  });
});
