import { DECIMAL_PATTERN } from '../decimal';
import { Exact, plain } from '../draft/exact';
import { normalizeSymbol } from '../draft/rules';

/**
 * The canonical form of a model's rows: what a revision's hash is taken over, and what two sets
 * of weights are compared by. Symbols are trimmed and upper-cased and sorted; each weight is its
 * decimal written the one way decimal.js writes it ("5", "5.00" and "05.0" are all "5"); a row at
 * weight 0 targets nothing (as a target position at 0 does), so it is left out. Plain functions,
 * no zod: the renderer may use them.
 */

export interface ModelRowInput {
  symbol: string;
  weight: string;
}

export interface CanonicalRow {
  symbol: string;
  /** The weight's canonical decimal string; never "0". */
  weight: string;
}

/** A weight's one spelling: "5.00" → "5", "0.50" → "0.5", "-0" → "0". Throws on a non-decimal. */
export function canonicalWeight(weight: string): string {
  const text = weight.trim();
  if (!DECIMAL_PATTERN.test(text)) throw new RangeError(`"${weight}" is not a decimal string`);
  return plain(new Exact(text));
}

/** Symbol order: by code unit, so every host sorts the same (no locale). */
const bySymbol = (a: { symbol: string }, b: { symbol: string }) =>
  a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0;

/**
 * The rows a model targets, canonical. Rows must be valid (no duplicate symbol): a duplicate is
 * an error here rather than a silent choice of one of them.
 */
export function canonicalRows(rows: readonly ModelRowInput[]): CanonicalRow[] {
  const out: CanonicalRow[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const symbol = normalizeSymbol(row.symbol);
    if (seen.has(symbol)) throw new RangeError(`${symbol} appears twice`);
    seen.add(symbol);
    const weight = canonicalWeight(row.weight);
    if (weight !== '0') out.push({ symbol, weight });
  }
  return out.sort(bySymbol);
}

/**
 * The text a revision's SHA-256 is taken over: one line per canonical row, `SYMBOL,weight`, each
 * ended by LF (an empty model is the empty text). Symbols hold no comma or LF (the draft's symbol
 * rule), so the text reads back to exactly one set of rows.
 */
export function canonicalText(rows: readonly ModelRowInput[]): string {
  return canonicalRows(rows)
    .map((r) => `${r.symbol},${r.weight}\n`)
    .join('');
}
