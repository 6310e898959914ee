import { parseDecimal } from '../decimal';

/**
 * Restrictions a desk enforces (docs/restrictions.md): a symbol the manager must not buy, must
 * not sell, or must not trade at all (hold), for one strategy, a tag or the whole profile, each
 * with a reason, who set it and when it is in force.
 *
 * The service gives positions and no prices, so the direction of a held symbol's order is not
 * known before the rebalance: a rule is broken for certain only where the target says it alone
 * (a symbol not held given a weight, a held symbol set to 0); a held symbol that keeps a weight
 * may be bought or sold back to that weight, which is a possible violation needing an override.
 */

export const RESTRICTION_KINDS = ['do-not-buy', 'do-not-sell', 'hold'] as const;
export type RestrictionKind = (typeof RESTRICTION_KINDS)[number];

export type RestrictionScope =
  { type: 'profile' } | { type: 'strategy'; strategyId: string } | { type: 'tag'; tag: string };

export interface Restriction {
  id: string;
  kind: RestrictionKind;
  /** Upper-case, as symbols are compared everywhere in the desk. */
  symbol: string;
  scope: RestrictionScope;
  reason: string;
  setBy: string;
  /** ISO timestamps; `from` inclusive, `until` exclusive, null for open-ended. */
  from: string;
  until: string | null;
}

/** The strategy a check is for: its id and tags. */
export interface RestrictedStrategy {
  strategyId: string;
  tags: readonly string[];
}

export const KIND_WORDS: Record<RestrictionKind, string> = {
  'do-not-buy': 'do not buy',
  'do-not-sell': 'do not sell',
  hold: 'hold (do not trade)',
};

/** The rules in force for a strategy at `at`, by symbol. */
export function restrictionsInForce(
  list: readonly Restriction[],
  strategy: RestrictedStrategy,
  at: string,
): Map<string, Restriction[]> {
  const tags = new Set(strategy.tags);
  const bySymbol = new Map<string, Restriction[]>();
  for (const r of list) {
    if (r.from > at || (r.until !== null && r.until <= at)) continue;
    const applies =
      r.scope.type === 'profile' ||
      (r.scope.type === 'strategy' && r.scope.strategyId === strategy.strategyId) ||
      (r.scope.type === 'tag' && tags.has(r.scope.tag));
    if (!applies) continue;
    const same = bySymbol.get(r.symbol);
    if (same) same.push(r);
    else bySymbol.set(r.symbol, [r]);
  }
  return bySymbol;
}

export type ViolationLevel = 'certain' | 'possible';

export interface Violation {
  symbol: string;
  level: ViolationLevel;
  /** Every rule the row runs into, in the order given. */
  restrictions: Restriction[];
  /** "AAPL is not held and gets 5 %: do not buy (Compliance hold, set by ana)". */
  message: string;
}

const isPositive = (weight: string) => {
  const parsed = parseDecimal(weight);
  return parsed.ok && !parsed.decimal.isZero();
};

function because(restrictions: readonly Restriction[]): string {
  return restrictions
    .map((r) => `${KIND_WORDS[r.kind]} (${r.reason}, set by ${r.setBy})`)
    .join('; ');
}

/**
 * Each target row (symbol, weight), with what the strategy holds now (symbols held with a
 * quantity above 0), against the rules in force. Symbols held but absent from the rows are set
 * to 0, as every execution sends them. Linear in rows and holdings; a row whose weight is not a
 * decimal is left to the draft's own checks.
 */
export function classifyTarget(
  rows: readonly { symbol: string; weight: string }[],
  held: ReadonlySet<string>,
  inForce: ReadonlyMap<string, readonly Restriction[]>,
): Violation[] {
  if (inForce.size === 0) return [];
  const violations: Violation[] = [];
  const seen = new Set<string>();
  const judge = (symbol: string, weight: string) => {
    const rules = inForce.get(symbol);
    if (!rules) return;
    const isHeld = held.has(symbol);
    const buys = rules.filter((r) => r.kind === 'do-not-buy' || r.kind === 'hold');
    const sells = rules.filter((r) => r.kind === 'do-not-sell' || r.kind === 'hold');
    if (!isHeld) {
      if (isPositive(weight) && buys.length > 0)
        violations.push({
          symbol,
          level: 'certain',
          restrictions: buys,
          message: `${symbol} is not held and gets ${weight} %: that buys it, against ${because(buys)}.`,
        });
      return;
    }
    if (!isPositive(weight)) {
      if (sells.length > 0)
        violations.push({
          symbol,
          level: 'certain',
          restrictions: sells,
          message: `${symbol} is held and set to 0 %: that sells it all, against ${because(sells)}.`,
        });
      return;
    }
    violations.push({
      symbol,
      level: 'possible',
      restrictions: [...rules],
      message: `${symbol} is held and gets ${weight} %: the rebalance may buy or sell it back to that weight (no prices tell which), against ${because(rules)}. An override with a note is needed.`,
    });
  };
  for (const row of rows) {
    const symbol = row.symbol.trim().toUpperCase();
    if (symbol === '' || seen.has(symbol)) continue;
    seen.add(symbol);
    judge(symbol, row.weight.trim());
  }
  for (const symbol of held) if (!seen.has(symbol)) judge(symbol, '0');
  return violations.sort((a, b) =>
    a.level === b.level
      ? a.symbol < b.symbol
        ? -1
        : a.symbol > b.symbol
          ? 1
          : 0
      : a.level === 'certain'
        ? -1
        : 1,
  );
}
