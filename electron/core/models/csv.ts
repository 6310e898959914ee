import { parseDraftPaste, pasteProblems } from '../../../shared/draft/paste';
import { DeskError } from '../../../shared/errors';
import type { ModelCsvImport } from '../../../shared/models/views';
import { CRLF, csvDecimalCell, csvTextCell, isFormulaLike } from '../csv/cell';
import { formattedLine, type ExportFile } from '../exports';
import type { StoredModelRow } from '../store';

/**
 * A model revision as a CSV file and back. Written with the app's one cell rule (core/csv: RFC
 * 4180 quoting, a formula-like text cell neutralized with a leading `'`); read with the draft's
 * paste and import reader (a header naming Symbol and Weight, commas, semicolons or tabs), the
 * neutralizing `'` taken off again, so a file the app wrote reads back to the same rows.
 */

export const MODEL_CSV_HEADER = 'symbol,weight';

/**
 * The revision's file (written by the app's one export, core/exports): a header, then one line
 * per row in the revision's order, CRLF after each.
 */
export function modelCsvFile(
  modelName: string,
  revisionNumber: number,
  rows: readonly StoredModelRow[],
): ExportFile {
  return {
    name: modelCsvName(modelName, revisionNumber),
    header: MODEL_CSV_HEADER + CRLF,
    *lines() {
      for (const row of rows) {
        const weight = csvDecimalCell(row.weight);
        // A saved weight is a decimal (the rules checked it): anything else is a damaged file.
        if (weight === null)
          throw new RangeError(`${row.symbol}: "${row.weight}" is not a decimal`);
        yield formattedLine(`${csvTextCell(row.symbol)},${weight}${CRLF}`);
      }
    },
  };
}

/** A name for the file: the model's name reduced to safe characters, and the revision. */
export function modelCsvName(modelName: string, revisionNumber: number): string {
  const stem = modelName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60);
  return `model-${stem || 'unnamed'}-revision-${revisionNumber}.csv`;
}

/** Rows read from a CSV text, with what the draft's rules say of each line. */
export function readModelCsv(text: string): ModelCsvImport {
  const result = parseDraftPaste(text);
  if (!result.ok) throw new DeskError({ kind: 'invalid-input', message: result.error });
  const rows = result.rows.map((r) => ({ symbol: unneutralized(r.symbol), weight: r.weight }));
  return { rows, problems: pasteProblems(result.rows), header: result.header };
}

/** A cell the app wrote as `'` + formula-like text reads back as the text. */
function unneutralized(symbol: string): string {
  return symbol.startsWith("'") && isFormulaLike(symbol.slice(1)) ? symbol.slice(1) : symbol;
}
