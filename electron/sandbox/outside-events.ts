import { z } from 'zod';
import { nowIso } from './clock';
import { cents, dec, str } from './money';
import { isRecognizedSymbol, priceOf } from './prices';
import { setHolding, type StrategyRec } from './state';

/**
 * What happens to a strategy outside any version, for the desk's attention queue to notice: a
 * trade made elsewhere (another system, a broker's desk) and a corporate action such as a split.
 * Both change the holdings the service reports and nothing else: no version, no order.
 */

const positiveDecimal = (what: string) =>
  z
    .string({ error: `${what} must be a decimal number written as text, e.g. "10"` })
    .regex(/^\d{1,20}(\.\d{1,20})?$/, `${what} must be a plain decimal number, e.g. "10" or "0.5"`)
    .refine((value) => dec(value).gt(0), `${what} must be more than 0`);

export const outsideTradeBody = z
  .object({
    symbol: z.string().min(1),
    side: z.enum(['BUY', 'SELL']),
    quantity: positiveDecimal('quantity'),
  })
  .strict();
export type OutsideTrade = z.infer<typeof outsideTradeBody>;

export const splitBody = z
  .object({
    symbol: z.string().min(1),
    // New shares per old share: "2" for a 2-for-1 split, "0.1" for a 1-for-10 reverse split.
    ratio: positiveDecimal('ratio'),
  })
  .strict();
export type Split = z.infer<typeof splitBody>;

/** Why an outside event cannot happen, in words for a 409; null when it was applied. */
export type Refusal = string | null;

/** A trade at the listed price, settled from the strategy's cash at once. */
export function applyOutsideTrade(strategy: StrategyRec, trade: OutsideTrade): Refusal {
  if (!isRecognizedSymbol(trade.symbol)) return `${trade.symbol} is not a recognized symbol.`;
  const holding = strategy.holdings.find((h) => h.symbol === trade.symbol);
  const held = dec(holding?.quantity ?? '0');
  const value = dec(cents(dec(priceOf(trade.symbol)).times(dec(trade.quantity))));
  const cash = dec(strategy.cash);
  if (trade.side === 'SELL' && dec(trade.quantity).gt(held))
    return `${strategy.name} holds ${str(held)} ${trade.symbol}, fewer than ${trade.quantity} to sell.`;
  if (trade.side === 'BUY' && value.gt(cash))
    return `${strategy.name} has ${cents(cash)} in cash, less than the ${cents(value)} this buy costs.`;
  const at = nowIso();
  const next = trade.side === 'BUY' ? held.plus(trade.quantity) : held.minus(trade.quantity);
  strategy.cash = str(trade.side === 'BUY' ? cash.minus(value) : cash.plus(value));
  setHolding(strategy, trade.symbol, next.toFixed(), at);
  return null;
}

/**
 * A split multiplies the quantity held; cash stays. The sandbox keeps one price list, so the
 * strategy's value moves by the split: the desk compares quantities, never values.
 */
export function applySplit(strategy: StrategyRec, split: Split): Refusal {
  const holding = strategy.holdings.find((h) => h.symbol === split.symbol);
  if (!holding) return `${strategy.name} holds no ${split.symbol}.`;
  setHolding(strategy, split.symbol, str(dec(holding.quantity).times(split.ratio)), nowIso());
  return null;
}
