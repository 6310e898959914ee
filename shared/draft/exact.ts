import { DECIMAL_PATTERN, Decimal } from '../decimal';
import { formatCount } from '../figures';

/**
 * decimal.js rounds every operation to 20 significant digits by default; weights may be
 * typed with more, and sums must be exact (cash = 100 - sum). Additions, subtractions and
 * multiplications never need more digits than their inputs, so a huge precision costs
 * nothing unless the digits exist. Never divide with this class.
 */
export const Exact = Decimal.clone({ precision: 1_000_000_000 });

/** For divisions (rescale): truncates, so a rounded-down share is never too large. */
export const Divide = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_DOWN });

export const ZERO = new Exact(0);
export const HUNDRED = new Exact(100);
export const NINETY_EIGHT = new Exact(98);

const ZERO_PATTERN = /^-?0+(\.0+)?$/;

/** True for a decimal string equal to zero ("0", "0.00", "-0"), without allocating. */
export function isZeroString(value: string): boolean {
  return ZERO_PATTERN.test(value);
}

/** Plain decimal string, never exponent notation; "-0" becomes "0". */
export function plain(value: Decimal): string {
  return value.isZero() ? '0' : value.toFixed();
}

/** Formats a count with a thousands separator for messages ("1,001 rows"), as every screen does. */
export const count = formatCount;

/** An Exact decimal from a decimal string; throws RangeError on anything else. */
export function toExact(value: string): Decimal {
  if (!DECIMAL_PATTERN.test(value)) throw new RangeError(`"${value}" is not a decimal string`);
  return new Exact(value);
}
