import { DECIMAL_PATTERN, parseDecimal } from '../decimal';

/**
 * Why a weight's text is not a decimal string, in words that say how to fix it. A draft keeps a
 * weight exactly as typed or pasted (a pasted line the app cannot read stays a row), so the
 * reason is found from the text alone each time the draft is validated, on either side.
 */
export function describeBadWeight(text: string): string {
  const bare = withoutPercent(text);
  if (bare === '') return 'is only a % sign; enter a number from 0 to 98';
  if (bare !== text && DECIMAL_PATTERN.test(bare))
    return 'has a % sign; leave it out, weights are already percentages';
  return describeNumberText(bare) ?? describeOther(bare, text);
}

/** The text without one trailing % sign and the spaces before it. */
export function withoutPercent(text: string): string {
  return text.endsWith('%') ? text.slice(0, -1).trimEnd() : text;
}

/** A cell cut to fit a draft row ends with this character, which no symbol or weight has. */
export const CUT_MARK = '…';

/** Numbers written the way a spreadsheet or a locale writes them: a separator to take out. */
function describeNumberText(text: string): string | null {
  const sign = /^[+-]/.test(text) ? text[0]! : '';
  const digits = text.slice(sign.length);
  if (/^\d{1,3}([ \u00A0\u202F]\d{3})+([.,]\d+)?$/.test(digits))
    return `has a space as a thousands separator; write the digits together (${suggest(sign, digits.replace(/[ \u00A0\u202F]/g, '').replace(',', '.'))})`;
  if (/^\d{1,3}(['\u2019]\d{3})+(\.\d+)?$/.test(digits))
    return `has an apostrophe as a thousands separator; write the digits together (${suggest(sign, digits.replace(/['\u2019]/g, ''))})`;
  if (/^\d{1,3},\d{3}$/.test(digits))
    // 1,000 reads as one thousand in one locale and as 1.000 in another: the manager decides.
    return `uses a comma: use a dot for decimals (${sign}${digits.replace(',', '.')}) and no thousands separator (${sign}${digits.replace(',', '')})`;
  if (/^\d+,\d+$/.test(digits))
    return `uses a comma: use a dot (${suggest(sign, digits.replace(',', '.'))})`;
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(digits))
    return `uses commas as thousands separators; write the digits together (${suggest(sign, digits.replace(/,/g, ''))})`;
  if (/^\d{1,3}(\.\d{3})+,\d+$/.test(digits))
    return `uses dots as thousands separators and a decimal comma; write ${suggest(sign, digits.replace(/\./g, '').replace(',', '.'))}`;
  return null;
}

function describeOther(bare: string, text: string): string {
  // Several values where one weight belongs: extra columns, or words beside the number.
  if (/[\s;,|]/.test(bare) && /\d/.test(bare) && bare.split(/[\s;,|]+/).filter(Boolean).length > 1)
    return 'holds more than one value; a row takes one weight (remove the extra column or words)';
  if (text.endsWith(CUT_MARK))
    return 'was longer than a weight can be and was cut; enter the weight again';
  if (/[\s;,|]/.test(bare) && !/\d/.test(bare)) return 'is not a number';
  const parsed = parseDecimal(bare);
  if (parsed.ok) return 'is not a decimal number';
  if (/e/i.test(bare) && !EXPONENT.test(bare) && !NOT_A_NUMBER.test(bare))
    return 'is not a decimal number';
  return parsed.error;
}

const EXPONENT = /^[+-]?(\d+\.?\d*|\.\d+)e[+-]?\d+$/i;
const NOT_A_NUMBER = /^[+-]?(nan|inf|infinity)$/i;

function suggest(sign: string, digits: string): string {
  const value = `${sign === '+' ? '' : sign}${digits}`;
  return DECIMAL_PATTERN.test(value) ? value : 'digits and one dot';
}
