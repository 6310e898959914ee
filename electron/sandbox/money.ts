import { Decimal } from '../../shared/decimal';

/**
 * The sandbox's Decimal: enough precision that sums of weights (at most 40
 * characters each, at most 1000 of them) and quantity x price stay exact.
 */
export const D = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;

export function dec(value: string): Dec {
  return new D(value);
}

/** Plain decimal string, never exponent notation. */
export function str(value: Dec): string {
  return value.toFixed();
}

/** Money to cents, half up. */
export function cents(value: Dec): string {
  return value.toDecimalPlaces(2, D.ROUND_HALF_UP).toFixed(2);
}
