/** A small, strict RFC 4180 parser for the tests: CRLF record ends, quoted fields, "" escapes. */
const UNQUOTED = /[^,\r\n"]*/y;

export function parseCsv(input: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  if (input === '') return records;
  for (;;) {
    let field = '';
    if (input[i] === '"') {
      i++;
      for (;;) {
        const quote = input.indexOf('"', i);
        if (quote === -1) throw new Error(`unterminated quoted field at ${i}`);
        field += input.slice(i, quote);
        if (input[quote + 1] === '"') {
          field += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
    } else {
      UNQUOTED.lastIndex = i;
      UNQUOTED.test(input);
      field = input.slice(i, UNQUOTED.lastIndex);
      i = UNQUOTED.lastIndex;
      if (input[i] === '"') throw new Error(`quote inside an unquoted field at ${i}`);
    }
    record.push(field);
    if (input[i] === ',') {
      i++;
      continue;
    }
    if (input.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
      if (i === input.length) return records;
      continue;
    }
    throw new Error(`expected a comma or CRLF at ${i}, found ${JSON.stringify(input[i] ?? 'end')}`);
  }
}
