/**
 * How numbers read on screen. Every function works on the decimal string itself, digit by digit:
 * a quantity or a value is never turned into a float to be formatted, so what is shown has the
 * same digits as what the service sent. The separators are fixed ("," between thousands, "."
 * before the fraction, as decimals are typed in this app), whatever the system's language.
 */

const SIGNED_DECIMAL = /^([+-]?)(\d+)(\.\d+)?$/;

/**
 * Thousands grouped in the integer part ("150000.00" → "150,000.00", "-1234" → "-1,234"); the
 * fraction is left as it is. Anything that is not a plain decimal string comes back unchanged.
 */
export function groupDigits(value: string): string {
  const m = SIGNED_DECIMAL.exec(value);
  if (!m) return value;
  const [, sign, whole, fraction = ''] = m;
  let grouped = '';
  for (let end = whole!.length; end > 0; end -= 3) {
    const start = Math.max(0, end - 3);
    grouped = grouped === '' ? whole!.slice(start, end) : `${whole!.slice(start, end)},${grouped}`;
  }
  return `${sign}${grouped}${fraction}`;
}

/** A count of things for a message or a table ("1,001 rows"): grouped like the amounts. */
export function formatCount(n: number): string {
  return Number.isSafeInteger(n) ? groupDigits(String(n)) : String(n);
}

/** Digits after the decimal point of a decimal string ("12.50" → 2, "7" → 0). */
export function fractionPlaces(value: string): number {
  const dot = value.indexOf('.');
  return dot === -1 ? 0 : value.length - dot - 1;
}

/**
 * What is drawn, invisibly, after a number so that its decimal point lines up with the others of
 * its column, each right-aligned in tabular figures: the missing fraction digits ("12.5" in a
 * column of 3 places gets "00"), with the point itself when the number has none ("12" gets ".000").
 */
export function alignmentPad(value: string | null, places: number): string {
  if (places <= 0) return '';
  const own = value === null ? 0 : fractionPlaces(value);
  if (value !== null && value.includes('.')) return '0'.repeat(Math.max(0, places - own));
  return `.${'0'.repeat(places)}`;
}

/**
 * The widest shape of a column of decimal strings, gathered in one pass without formatting any of
 * them: the most integer digits, the most fraction digits, and the widest sign. `widest()` is a
 * number as wide as the widest one is when shown (grouped and aligned), for sizing the column.
 */
export class NumberColumn {
  /** Most digits after the point: every number of the column is aligned to these. */
  places = 0;
  private wholeDigits = 1;
  private sign = '';

  add(value: string | null | undefined): void {
    if (value == null) return;
    const signed = value.charCodeAt(0) === 45 || value.charCodeAt(0) === 43; // '-' or '+'
    const dot = value.indexOf('.');
    const whole = (dot === -1 ? value.length : dot) - (signed ? 1 : 0);
    if (whole > this.wholeDigits) this.wholeDigits = whole;
    if (dot !== -1 && value.length - dot - 1 > this.places) this.places = value.length - dot - 1;
    // "+" is drawn wider than "-" in most faces: the column keeps room for the wider one.
    if (signed && this.sign !== '+') this.sign = value[0]!;
  }

  widest(group = true): string {
    const whole = '8'.repeat(this.wholeDigits);
    const fraction = this.places > 0 ? `.${'8'.repeat(this.places)}` : '';
    return `${this.sign}${group ? groupDigits(whole) : whole}${fraction}`;
  }
}

/**
 * The longest of a column's texts (a symbol, a date, a status), for sizing the column. Length is a
 * good enough guess between texts of one kind; a longer one drawn later still widens the column.
 */
export class TextColumn {
  longest = '';

  add(value: string | null | undefined): void {
    if (value != null && value.length > this.longest.length) this.longest = value;
  }
}
