import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planPositions } from '../../../electron/sandbox/engine';
import { diffDraft } from '../../../shared/draft/diff';
import { comparePrediction, predictExecution } from '../../../shared/draft/prediction';
import { actionWords } from '../../../shared/draft/words';
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
          if (target === null) expect(p.action).toBe('uncertain');
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

/** Why the app may doubt the target it knows, beyond not knowing one. */
const standingArb = fc.record({ stale: fc.boolean(), unconfirmed: fc.boolean() });

const COMPLETE_AT = '2026-01-01T00:00:00.000001Z';
/** The known version's facts: ended, no orders, so the holdings and the update time decide. */
const ended = (positions: TargetPosition[]) => ({
  positions,
  orders: [],
  status: 'COMPLETE' as const,
  executedAt: COMPLETE_AT,
  insertedAt: COMPLETE_AT,
});

describe('a prediction on a target in doubt', () => {
  it('presents no action and no "unchanged" as fact; the body and the sales stay the same', () => {
    fc.assert(
      fc.property(
        targetArb,
        fc.boolean(),
        holdingsArb,
        draftArb,
        standingArb,
        (known, unknown, held, rows, standing) => {
          const target = unknown ? null : known;
          const validation = validateDraft(rows, { previousTarget: target ?? [] });
          const certain = predictExecution(validation, target, held);
          const doubted = predictExecution(validation, target, held, standing);
          const doubts = unknown
            ? ['unknown']
            : [
                ...(standing.stale ? ['stale'] : []),
                ...(standing.unconfirmed ? ['unconfirmed'] : []),
              ];
          expect(doubted.doubts).toEqual(doubts);
          // A doubt changes what is said, never what is sent nor which holdings are sold.
          expect(doubted.body).toEqual(certain.body);
          expect(doubted.positions.map((p) => [p.symbol, p.sellsAll, p.heldQuantity])).toEqual(
            certain.positions.map((p) => [p.symbol, p.sellsAll, p.heldQuantity]),
          );
          const heldSymbols = held.filter((h) => h.quantity !== '0').map((h) => h.symbol);
          if (doubts.length === 0) {
            expect(doubted).toEqual(certain);
            expect(doubted.possiblyTargeted).toEqual([]);
            expect(doubted.needsAcknowledgement).toBe(false);
            return;
          }
          for (const p of doubted.positions) {
            expect(p.action).toBe('uncertain');
            expect(p.doubt).toBe(doubts[0]);
            expect(p.effect).toBe(p.sellsAll ? 'sell-held' : 'uncertain');
            // Its words never name an action, and name the sale where there is one.
            const words = actionWords(p);
            expect(words).not.toMatch(/ADD|CHANGE|REMOVE|IGNORE|unchanged/);
            expect(words.includes('sells all')).toBe(p.sellsAll);
          }
          expect(doubted.changesNothing).toBe(false);
          // The holdings suggest what the service may target now: held, not in the known target.
          const targeted = new Set((target ?? []).map((p) => p.symbol));
          expect(doubted.possiblyTargeted).toEqual(
            heldSymbols.filter((s) => !targeted.has(s)).sort(),
          );
          // Any doubt about a known target takes the tick; an unknown one when something is held.
          expect(doubted.needsAcknowledgement).toBe(unknown ? heldSymbols.length > 0 : true);
        },
      ),
      RUNS,
    );
  });

  it('the grid and the confirmation say the same of every symbol', () => {
    fc.assert(
      fc.property(
        targetArb,
        fc.boolean(),
        holdingsArb,
        draftArb,
        fc.boolean(),
        (known, unknown, held, rows, stale) => {
          const target = unknown ? null : known;
          const validation = validateDraft(rows, { previousTarget: target ?? [] });
          if (!validation.valid) return;
          const grid = diffDraft(validation, target, held, { stale });
          const confirmation = predictExecution(validation, target, held, { stale });
          const say = (r: {
            symbol: string;
            action: unknown;
            effect: unknown;
            sellsAll: boolean;
            heldNotInTarget: boolean;
          }) => [r.symbol, r.action, r.effect, r.sellsAll, r.heldNotInTarget];
          expect(grid.rows.map(say)).toEqual(confirmation.positions.map(say));
          expect(grid.doubt).toBe(confirmation.doubts[0] ?? null);
        },
      ),
      RUNS,
    );
  });

  it('after a 202, the doubt the holdings raise leaves no surprise: every difference was expected', () => {
    // The app knows `older`; the service's target is `latest`, fully filled (holdings = its
    // symbols). Executing elsewhere updated the strategy unless the target is the same one.
    fc.assert(
      fc.property(targetArb, targetArb, fc.boolean(), draftArb, (older, latest, same, rows) => {
        const serviceTarget = same ? older : latest;
        const held = serviceTarget.map((p) => ({ symbol: p.symbol, quantity: '2' }));
        const updatedAt = same ? COMPLETE_AT : '2026-01-02T00:00:00.000001Z';
        const check = checkTarget(ended(older), held, updatedAt);
        const validation = validateDraft(rows, { previousTarget: older });
        const prediction = predictExecution(validation, older, held, { stale: !check.fits });
        const answer = serviceAnswer(serviceTarget, prediction.body.data.positions);
        const differences = comparePrediction(prediction.positions, answer);
        if (same) expect(differences).toEqual([]);
        for (const d of differences) expect(d.expected).toBe(true);
        // Without the update time, a surprise needs a target with the very same symbols.
        const blind = checkTarget(ended(older), held, COMPLETE_AT);
        const unseen = predictExecution(validation, older, held, { stale: !blind.fits });
        const surprises = comparePrediction(
          unseen.positions,
          serviceAnswer(serviceTarget, unseen.body.data.positions),
        ).filter((d) => !d.expected);
        if (surprises.length > 0)
          expect(new Set(older.map((p) => p.symbol))).toEqual(
            new Set(serviceTarget.map((p) => p.symbol)),
          );
      }),
      RUNS,
    );
  });

  it('records made before doubts were recorded read a null action as uncertain', () => {
    const legacy = [{ symbol: 'KO', oldWeight: null, action: null }];
    const answer = serviceAnswer(
      [{ symbol: 'PEP', weight: '10' }],
      [{ symbol: 'KO', weight: '5' }],
    );
    expect(comparePrediction(legacy, answer)).toEqual([
      {
        symbol: 'PEP',
        predicted: null,
        service: { action: 'REMOVE', oldWeight: '10', weight: '0' },
        expected: true,
      },
    ]);
    // A definite prediction that the service contradicts is a surprise.
    const definite = [{ symbol: 'KO', oldWeight: '0', action: 'ADD' as const }];
    expect(
      comparePrediction(
        definite,
        serviceAnswer([{ symbol: 'KO', weight: '3' }], [{ symbol: 'KO', weight: '5' }]),
      ),
    ).toMatchObject([{ symbol: 'KO', expected: false }]);
  });
});
