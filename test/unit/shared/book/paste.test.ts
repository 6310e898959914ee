import { describe, expect, it } from 'vitest';
import {
  cleanCell,
  notTextProblem,
  parsePastedIds,
  readPastedIds,
  splitLine,
  utf16Of,
} from '../../../../shared/book/paste';

const A = 'c3633e1d-f6c8-49fb-97e5-80b6e09e9a21';
const B = 'fcf7399e-c3c7-42b0-88af-f28bbb709316';
const C = 'b4ad3dd3-28ec-455a-81fc-b07cb0c90a85';

const kinds = (text: string) =>
  parsePastedIds(text).lines.map((l) => [l.line, l.kind, l.id ?? l.text]);

describe('reading a pasted list of ids', () => {
  it('reads one id a line, with CRLF, CR or LF, and skips blank lines', () => {
    const parsed = parsePastedIds(`${A}\r\n\r\n${B}\r${C}\n\n`);
    expect(parsed.ids).toEqual([A, B, C]);
    expect(parsed.blank).toBe(2);
    expect(parsed.separator).toBe('');
    expect(kinds(`${A}\r\n\r\n${B}\r${C}\n\n`)).toEqual([
      [1, 'id', A],
      [3, 'id', B],
      [4, 'id', C],
    ]);
  });

  it('takes off a BOM, stray spaces (non-breaking, zero-width) and quotes of every kind', () => {
    const text = [
      `\ufeff${A}`,
      `   ${B.toUpperCase()}\t `,
      `\u00a0"${C}"\u200b`,
      `'${A}'`,
      `“${B}”`,
      `\`${C}\``,
    ].join('\n');
    const parsed = parsePastedIds(text);
    expect(parsed.ids).toEqual([A, B, C]);
    expect(parsed.lines.map((l) => l.kind)).toEqual([
      'id',
      'id',
      'id',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(parsed.lines[3]).toMatchObject({ id: A, firstLine: 1 });
    // The id as pasted is kept to show; the id itself is lower-cased.
    expect(parsed.lines[1]).toMatchObject({ text: B.toUpperCase(), id: B });
  });

  it('reads the id column of a CSV with a header, whichever column it is', () => {
    const text = ['name,strategy_id,notes', `Core,${A},"a, b"`, `Dividend,"${B}",`, ',,'].join(
      '\n',
    );
    const parsed = parsePastedIds(text);
    expect(parsed.separator).toBe(',');
    expect(parsed.column).toBe(1);
    expect(kinds(text)).toEqual([
      [1, 'header', 'strategy_id'],
      [2, 'id', A],
      [3, 'id', B],
      [4, 'not-an-id', ''],
    ]);
  });

  it('reads a TSV copied from a spreadsheet, and semicolons from a European one', () => {
    expect(parsePastedIds(`Strategy ID\tName\n${A}\tCore\n${B}\tDividend`).ids).toEqual([A, B]);
    const semicolons = parsePastedIds(`id;name\n${C};Fresh`);
    expect(semicolons.separator).toBe(';');
    expect(semicolons.ids).toEqual([C]);
    expect(semicolons.lines[0]!.kind).toBe('header');
  });

  it('names what is not an id, and only the first line may be a header', () => {
    expect(kinds(`ids\n${A}\nid\nnot-an-id\n${A.slice(0, 35)}\n${A}x`)).toEqual([
      [1, 'header', 'ids'],
      [2, 'id', A],
      [3, 'not-an-id', 'id'],
      [4, 'not-an-id', 'not-an-id'],
      [5, 'not-an-id', A.slice(0, 35)],
      [6, 'not-an-id', `${A}x`],
    ]);
    expect(kinds(`hello\n${A}`)[0]).toEqual([1, 'not-an-id', 'hello']);
  });

  it('cuts a very long line to 200 characters for showing', () => {
    const long = 'x'.repeat(5000);
    const [line] = parsePastedIds(long).lines;
    expect(line!.text).toHaveLength(200);
    expect(line!.text.endsWith('…')).toBe(true);
  });

  it('reads 100,000 lines with a kind each, quickly', () => {
    const lines = Array.from({ length: 100_000 }, (_, i) =>
      i % 4 === 0 ? A : i % 4 === 1 ? `junk ${i}` : i % 4 === 2 ? '' : B.toUpperCase(),
    );
    const started = performance.now();
    const parsed = parsePastedIds(lines.join('\n'));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(parsed.lines).toHaveLength(75_000);
    expect(parsed.blank).toBe(25_000);
    expect(parsed.ids).toEqual([A, B]);
  });

  it('reads a long text in slices, the same as in one go', () => {
    const text = `id,name\n${`${A},"x""y"\n${' '.repeat(500)}\n${B.toUpperCase()},z\n`.repeat(2_000)}`;
    const reading = readPastedIds(text);
    let slices = 1;
    let step = reading.next();
    for (; !step.done; step = reading.next()) slices++;
    // About 50,000 characters a slice: the first pass alone, over every line, takes that many.
    expect(slices).toBeGreaterThan(text.length / 50_000);
    expect(step.value).toEqual(parsePastedIds(text));
    expect(step.value.ids).toEqual([A, B]);
    expect(step.value.lines).toHaveLength(4_001);
  });

  it('splits on the separator outside quotes, with "" as a quote', () => {
    expect(splitLine('a,"b,c","d""e",f', ',')).toEqual(['a', 'b,c', 'd"e', 'f']);
    expect(splitLine(' "x" ,y', ',')).toEqual(['x ', 'y']);
    expect(cleanCell(' \u00a0"\'x\'"\u200b ')).toBe('x');
  });
});

describe('whether a file is text', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('takes UTF-8 with or without a BOM, and UTF-16 with its BOM', () => {
    expect(notTextProblem(bytes(`${A}\n${B}`))).toBeNull();
    expect(notTextProblem(bytes(`\ufeffnom,id\nÉtoile,${A}`))).toBeNull();
    expect(notTextProblem(new Uint8Array([0xff, 0xfe, 0x41, 0x00]))).toBeNull();
    expect(utf16Of(new Uint8Array([0xff, 0xfe, 0x41, 0x00]))).toBe('utf-16le');
    expect(utf16Of(new Uint8Array([0xfe, 0xff, 0x00, 0x41]))).toBe('utf-16be');
  });

  it('refuses binary files in plain words: a NUL byte, or bytes that are not UTF-8', () => {
    // A zip (xlsx) starts PK\3\4 and holds NUL bytes.
    expect(notTextProblem(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]))).toMatch(
      /not text .*spreadsheet/,
    );
    // Latin-1 "é" alone is not UTF-8; a PNG's header neither.
    expect(notTextProblem(new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toMatch(/not UTF-8 text/);
    expect(notTextProblem(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toMatch(
      /not UTF-8/,
    );
    // A sequence cut at the end of the file.
    expect(notTextProblem(new Uint8Array([0x41, 0xe2, 0x82]))).toMatch(/not UTF-8/);
  });
});
