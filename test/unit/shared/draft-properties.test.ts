import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../shared/decimal';
import { createDraftAnalyzer } from '../../../shared/draft/analyzer';
import { diffDraft } from '../../../shared/draft/diff';
import { rescaleToTotal } from '../../../shared/draft/edit';
import { buildExecuteBody } from '../../../shared/draft/execute-body';
import type { DraftRowInput, TargetPosition } from '../../../shared/draft/types';
import { parseImportedWeight, validateDraft } from '../../../shared/draft/validate';

const RUNS = { numRuns: 500 };
/** An independent oracle: decimal.js with more precision than any generated input needs. */
const Oracle = Decimal.clone({ precision: 200 });

const digits = (max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: max });
/** Decimal strings from 0 to 98 as a manager might type them ("5", "05.50", "97.123456789"). */
const weightInRange = fc
  .tuple(fc.integer({ min: 0, max: 97 }), fc.option(digits(12)), fc.boolean())
  .map(([int, frac, pad]) => `${pad ? '0' : ''}${int}${frac === null ? '' : `.${frac}`}`);
const anyDecimal = fc
  .tuple(fc.boolean(), digits(6), fc.option(digits(25)))
  .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}`);
const anyWeight = fc.oneof(
  { weight: 6, arbitrary: weightInRange },
  { weight: 2, arbitrary: anyDecimal },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '1e3', '1,5', 'NaN', '5%', '+1', '.5') },
);
const POOL = ['AAPL', 'MSFT', 'GOOG', 'BRK.B', 'SPY', 'NVDA', 'BF-B', 'A/B'];
const symbol = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...POOL) },
  { weight: 1, arbitrary: fc.constantFrom('', 'AA PL', 'X'.repeat(21)) },
);
const draftRows = fc.array(fc.record({ symbol, weight: anyWeight }), { maxLength: 12 });
const target = fc
  .uniqueArray(
    fc.record({ symbol: fc.constantFrom(...POOL), weight: weightInRange.map((w) => w) }),
    {
      selector: (p) => p.symbol,
      maxLength: 6,
    },
  )
  .map((positions): TargetPosition[] =>
    positions.map((p) => ({ ...p, weight: p.weight.slice(0, 6) })),
  );
const holdings = fc.uniqueArray(
  fc.record({
    symbol: fc.constantFrom(...POOL, 'TSLA'),
    quantity: fc.constantFrom('0', '1', '2.5', '0.000'),
  }),
  { selector: (h) => h.symbol, maxLength: 6 },
);

/** A valid draft: unique symbols, weights in range, sum at most 98. */
const validDraft = fc
  .uniqueArray(fc.constantFrom(...POOL), { minLength: 1, maxLength: POOL.length })
  .chain((symbols) =>
    fc.tuple(...symbols.map(() => weightInRange)).map((weights) => {
      const scale = new Oracle(98).div(
        Decimal.max(98, ...weights.map((w) => new Oracle(w))).times(symbols.length),
      );
      // Shrink the weights so their sum stays within 98, keeping them decimal strings.
      return symbols.map((s, i) => ({
        symbol: s,
        weight: scale.gte(1)
          ? weights[i]!
          : new Oracle(weights[i]!).times(scale).toDecimalPlaces(9, Decimal.ROUND_DOWN).toFixed(),
      }));
    }),
  )
  // An all-zero draft is valid only with a current target: keep one weight above 0.
  .filter((rows) => rows.some((r) => !/^0+(\.0+)?$/.test(r.weight)));

describe('draft properties', () => {
  it('cash is exactly 100 minus the sum of the decimal weights', () => {
    fc.assert(
      fc.property(draftRows, (rows) => {
        const v = validateDraft(rows);
        let sum = new Oracle(0);
        for (const r of rows)
          if (/^-?\d+(\.\d+)?$/.test(r.weight.trim())) sum = sum.plus(r.weight.trim());
        expect(new Oracle(v.total).eq(sum)).toBe(true);
        expect(new Oracle(v.cash).eq(new Oracle(100).minus(sum))).toBe(true);
        expect(v.cash).not.toMatch(/e/i);
      }),
      RUNS,
    );
  });

  it('a typed decimal string reaches the body unchanged (parse, then body)', () => {
    fc.assert(
      fc.property(
        validDraft,
        fc.boolean(),
        fc.constantFrom('', ' ', '  '),
        (rows, percent, space) => {
          const typed = rows.map((r) => ({
            symbol: r.symbol,
            weight: `${space}${r.weight}${percent ? '%' : ''}${space}`,
          }));
          const parsed = typed.map((r) => {
            const w = parseImportedWeight(r.weight);
            if (!w.ok) throw new Error(w.error);
            return { symbol: r.symbol, weight: w.value };
          });
          const body = buildExecuteBody(parsed, []);
          expect(body.data.positions.map((p) => p.weight)).toEqual(rows.map((r) => r.weight));
        },
      ),
      RUNS,
    );
  });

  it('predicted actions agree with old and new weights', () => {
    fc.assert(
      fc.property(draftRows, target, holdings, (rows, previous, held) => {
        const d = diffDraft(validateDraft(rows, { previousTarget: previous }), previous, held);
        for (const r of d.rows) {
          if (r.action === null) continue;
          const old = new Oracle(r.oldWeight);
          const now = new Oracle(r.newWeight);
          const expected = old.eq(now)
            ? 'IGNORE'
            : old.isZero()
              ? 'ADD'
              : now.isZero()
                ? 'REMOVE'
                : 'CHANGE';
          expect(r.action).toBe(expected);
          expect(new Oracle(r.change!).eq(now.minus(old))).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('the body names every previous-target symbol and no symbol twice', () => {
    fc.assert(
      fc.property(validDraft, target, (rows, previous) => {
        const body = buildExecuteBody(rows, previous);
        const symbols = body.data.positions.map((p) => p.symbol);
        expect(new Set(symbols).size).toBe(symbols.length);
        for (const p of previous)
          if (!new Oracle(p.weight).isZero()) expect(symbols).toContain(p.symbol);
        for (const p of body.data.positions)
          if (!rows.some((r) => r.symbol === p.symbol)) expect(p.weight).toBe('0');
      }),
      RUNS,
    );
  });

  it('validation does not depend on the symbols case or surrounding spaces', () => {
    const messy = (s: string, flips: boolean[], pad: string) =>
      pad + [...s].map((c, i) => (flips[i % flips.length] ? c.toLowerCase() : c)).join('') + pad;
    fc.assert(
      fc.property(
        draftRows,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(' ', '\t', '  '),
        (rows, flips, pad) => {
          const upper = rows.map((r) => ({ symbol: r.symbol.toUpperCase(), weight: r.weight }));
          const mixed = upper.map((r) => ({ ...r, symbol: messy(r.symbol, flips, pad) }));
          expect(validateDraft(mixed)).toEqual(validateDraft(upper));
        },
      ),
      RUNS,
    );
  });

  it('rescale sums exactly to the total, keeps locked rows and never goes negative', () => {
    fc.assert(
      fc.property(
        validDraft,
        weightInRange,
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        (rows, total, lockFlags) => {
          const locked = new Set(rows.map((_, i) => i).filter((i) => lockFlags[i]));
          const result = rescaleToTotal(rows, total, locked);
          if (!result.ok) return; // impossible cases are covered by unit tests
          let sum = new Oracle(0);
          result.rows.forEach((r, i) => {
            const w = new Oracle(r.weight);
            expect(w.gte(0)).toBe(true);
            if (locked.has(i)) expect(r.weight).toBe(rows[i]!.weight);
            sum = sum.plus(w);
          });
          expect(sum.eq(new Oracle(total))).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('the incremental analyzer answers exactly like validateDraft and diffDraft', () => {
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('weight' as const), at: fc.nat(), weight: anyWeight }),
      fc.record({ kind: fc.constant('symbol' as const), at: fc.nat(), symbol }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), symbol, weight: anyWeight }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
    );
    fc.assert(
      fc.property(
        draftRows,
        target,
        holdings,
        fc.array(edit, { maxLength: 12 }),
        fc.boolean(),
        (start, previous, held, edits, stale) => {
          // A target the holdings do not fit: the same answers, every action uncertain.
          const analyzer = createDraftAnalyzer(previous, held, { stale });
          let rows: DraftRowInput[] = start;
          const check = () => {
            const expected = validateDraft(rows, { previousTarget: previous });
            const { validation, diff } = analyzer.analyze(rows);
            expect(validation).toEqual(expected);
            expect(diff).toEqual(diffDraft(expected, previous, held, { stale }));
          };
          check();
          for (const e of edits) {
            const next = rows.slice();
            const at = rows.length === 0 ? 0 : e.at % rows.length;
            if (e.kind === 'insert') next.splice(at, 0, { symbol: e.symbol, weight: e.weight });
            else if (rows.length === 0) continue;
            else if (e.kind === 'delete') next.splice(at, 1);
            else if (e.kind === 'weight') next[at] = { ...rows[at]!, weight: e.weight };
            else next[at] = { ...rows[at]!, symbol: e.symbol };
            rows = next;
            check();
          }
        },
      ),
      RUNS,
    );
  });
});
