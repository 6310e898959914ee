import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PLAIN_FIRST_CHAR,
  csvCell,
  csvDecimalCell,
  csvTextCell,
  isFormulaLike,
} from '../../../../electron/core/csv/cell';
import { parseCsv } from '../../../support/rfc4180';

/** What a spreadsheet may pass over before a formula: spaces of every kind and invisible marks. */
const SKIPPABLE = [
  ' ',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2007',
  '\u200a',
  '\u2028',
  '\u202f',
  '\u205f',
  '\u3000',
  '\u180e',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u202e',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '\v',
  '\f',
  '\u0085',
];
/** OWASP's and ASVS's formula starts, and forms a spreadsheet may fold into them. */
const STARTS = [
  '=',
  '+',
  '-',
  '@',
  '\t',
  '\r',
  '\n',
  '\0',
  '＝',
  '＋',
  '－',
  '＠',
  '﹦',
  '﹢',
  '﹣',
];

/**
 * The spreadsheet's reading, written independently of the implementation: past the skippable
 * characters, a formula starts with a character whose compatibility form (NFKC) starts with
 * = + - @, or the cell starts with TAB, CR, LF or NUL.
 */
function readsAsFormula(cell: string): boolean {
  if (/^[\t\r\n\0]/.test(cell)) return true;
  const chars = [...cell];
  let i = 0;
  while (i < chars.length && (/\s/.test(chars[i]!) || SKIPPABLE.includes(chars[i]!))) i++;
  const first = chars[i];
  return first !== undefined && /^[=+\-@\t\r\n\0]/.test(first.normalize('NFKC'));
}

const anyText = fc.string({ unit: 'grapheme', maxLength: 12 });
const tricky = fc.constantFrom(...SKIPPABLE, ...STARTS, '"', ',', "'", '|', '%', 'a', '1');
const trickyText = fc
  .array(fc.oneof(tricky, anyText), { maxLength: 8 })
  .map((parts) => parts.join(''));
const hiddenFormula = fc
  .tuple(fc.array(fc.constantFrom(...SKIPPABLE), { maxLength: 4 }), fc.constantFrom(...STARTS))
  .chain(([skipped, start]) => trickyText.map((rest) => skipped.join('') + start + rest));

/** The one cell a CSV line of one cell reads back as (RFC 4180). */
const readBack = (cell: string) => parseCsv(cell + '\r\n')[0]![0]!;

describe('the CSV cell rule (property)', () => {
  it('neutralizes every formula behind spaces, invisible marks or compatibility forms', () => {
    fc.assert(
      fc.property(hiddenFormula, (value) => {
        expect(isFormulaLike(value)).toBe(true);
        expect(readBack(csvTextCell(value))).toBe(`'${value}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads back as the text itself or with one leading quote, never as a formula', () => {
    fc.assert(
      fc.property(fc.oneof(trickyText, hiddenFormula, fc.string()), (value) => {
        const back = readBack(csvTextCell(value));
        expect(back === value || back === `'${value}`).toBe(true);
        // A spreadsheet's reading of a formula is always caught…
        if (readsAsFormula(value)) expect(back).toBe(`'${value}`);
        // …and what comes out is never one.
        expect(readsAsFormula(back)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('writes plain decimals as they are, negative ones included, and nothing else', () => {
    const decimal = fc
      .tuple(
        fc.boolean(),
        fc.stringMatching(/^\d{1,12}$/),
        fc.option(fc.stringMatching(/^\d{1,8}$/)),
      )
      .map(
        ([minus, whole, fraction]) =>
          `${minus ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`,
      );
    fc.assert(
      fc.property(decimal, (value) => {
        expect(csvDecimalCell(value)).toBe(value);
      }),
    );
    for (const bad of ['=1', ' -1', '-1 ', '1e5', '－1', '\u00a01', '+1', '1,5', ''])
      expect(csvDecimalCell(bad), JSON.stringify(bad)).toBeNull();
  });
});

describe('the CSV cell rule, character by character', () => {
  it('agrees on its fast path (a first-character table) with the spreadsheet reading', () => {
    for (let code = 0; code < 0x10000; code++) {
      const char = String.fromCharCode(code);
      for (const rest of ['=1', 'a', ''])
        if (readsAsFormula(char + rest))
          expect(isFormulaLike(char + rest), JSON.stringify(char + rest)).toBe(true);
    }
    for (const char of [' ', '\u00a0', '\u200b', 'a', '1', '|', '%'])
      expect(isFormulaLike(`${char}x`), JSON.stringify(char)).toBe(false);
  });

  it('lets a line be written as it is only after a first character that is safe', () => {
    const plain = new RegExp(`^${PLAIN_FIRST_CHAR}$`);
    for (let code = 0; code < 0x10000; code++) {
      const char = String.fromCharCode(code);
      if (!plain.test(char)) continue;
      expect(code >= 0x21 && code < 0x7f).toBe(true);
      for (const rest of ['=1', '\u00a0=1', ''])
        expect(csvTextCell(char + rest), JSON.stringify(char + rest)).toBe(char + rest);
    }
  });

  it('writes whole numbers as numbers and refuses others', () => {
    expect(csvCell(-12)).toBe('-12');
    expect(csvCell(null)).toBe('');
    expect(csvCell('-12')).toBe("'-12");
    expect(() => csvCell(1.5)).toThrow(/not a whole number/);
  });
});
