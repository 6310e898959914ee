import { readRecords } from '../../../shared/draft/paste';
import { DeskError } from '../../../shared/errors';
import { RESTRICTION_KINDS, type RestrictionKind } from '../../../shared/restrictions/rules';
import { CRLF, csvTextCell, isFormulaLike } from '../csv/cell';
import { formattedLine, type ExportFile } from '../exports';
import type { StoredRestriction } from '../store/repositories/restrictions';
import type { NewRestriction } from './restrictions';

/**
 * Restrictions as a CSV file and back: written with the app's one cell rule (core/csv) through
 * the one export (core/exports), read with the draft paste's RFC 4180 reader. A file the app
 * wrote reads back to the same rules (new ids). Reading refuses the whole file at the first
 * cell it cannot use, naming its line and column: nothing is half imported.
 */

export const RESTRICTION_CSV_COLUMNS = [
  'kind',
  'symbol',
  'scope',
  'strategy_or_tag',
  'reason',
  'set_by',
  'from',
  'until',
] as const;

export function restrictionsCsvFile(
  profileName: string,
  rules: readonly StoredRestriction[],
): ExportFile {
  const stem = profileName
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return {
    name: `restrictions-${stem || 'profile'}.csv`,
    header: RESTRICTION_CSV_COLUMNS.join(',') + CRLF,
    *lines() {
      for (const r of rules) {
        const scoped =
          r.scope.type === 'strategy'
            ? r.scope.strategyId
            : r.scope.type === 'tag'
              ? r.scope.tag
              : '';
        const cells = [
          r.kind,
          r.symbol,
          r.scope.type,
          scoped,
          r.reason,
          r.setBy,
          r.from,
          r.until ?? '',
        ];
        yield formattedLine(cells.map(csvTextCell).join(',') + CRLF);
      }
    },
  };
}

/** The rules of a CSV text; `setBy` fills an empty set_by cell. */
export function readRestrictionsCsv(
  text: string,
  setBy: string,
): { rule: NewRestriction; line: number }[] {
  const records = readRecords(text.replace(/^\uFEFF/, ''), ',');
  if (records.length === 0) throw invalid('The file has no lines: nothing was imported.');
  const [head, ...rows] = records;
  const header = head!.cells.map((c) => c.trim().toLowerCase());
  const at = new Map(header.map((name, i) => [name, i]));
  const missing = RESTRICTION_CSV_COLUMNS.filter((c) => c !== 'until' && !at.has(c));
  if (missing.length > 0)
    throw invalid(
      `Line 1 (the header) lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; ` +
        `the columns are ${RESTRICTION_CSV_COLUMNS.join(', ')}. Nothing was imported.`,
    );
  if (rows.length === 0) throw invalid('The file has a header and no rows: nothing was imported.');
  return rows.map(({ cells, line }) => {
    const cell = (column: (typeof RESTRICTION_CSV_COLUMNS)[number]) => {
      const i = at.get(column);
      const value = i === undefined ? '' : (cells[i] ?? '').trim();
      // A cell the app wrote as ' + formula-like text reads back as the text.
      return value.startsWith("'") && isFormulaLike(value.slice(1)) ? value.slice(1) : value;
    };
    const where = (column: string) => `Line ${line}, column ${column}: `;
    const kind = cell('kind').toLowerCase();
    if (!(RESTRICTION_KINDS as readonly string[]).includes(kind))
      throw invalid(
        `${where('kind')}"${cell('kind')}" is not one of ${RESTRICTION_KINDS.join(', ')}. Nothing was imported.`,
      );
    const scopeType = cell('scope').toLowerCase();
    const scoped = cell('strategy_or_tag');
    let scope: NewRestriction['scope'];
    if (scopeType === 'profile') scope = { type: 'profile' };
    else if (scopeType === 'strategy') {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(scoped))
        throw invalid(
          `${where('strategy_or_tag')}"${scoped}" is not a strategy id. Nothing was imported.`,
        );
      scope = { type: 'strategy', strategyId: scoped.toLowerCase() };
    } else if (scopeType === 'tag') {
      if (scoped === '')
        throw invalid(`${where('strategy_or_tag')}name the tag. Nothing was imported.`);
      scope = { type: 'tag', tag: scoped };
    } else
      throw invalid(
        `${where('scope')}"${cell('scope')}" is not profile, strategy or tag. Nothing was imported.`,
      );
    for (const column of ['symbol', 'reason'] as const)
      if (cell(column) === '')
        throw invalid(`${where(column)}the cell is empty. Nothing was imported.`);
    const rule: NewRestriction = {
      kind: kind as RestrictionKind,
      symbol: cell('symbol'),
      scope,
      reason: cell('reason'),
      setBy: cell('set_by') || setBy,
      ...(cell('from') !== '' && { from: cell('from') }),
      until: cell('until') === '' ? null : cell('until'),
    };
    return { rule, line };
  });
}

/** Where a cell of the line is, as the domain's refusals start. */
export const csvWhere = (line: number) => (column: string) => `Line ${line}, column ${column}: `;

function invalid(message: string): DeskError {
  return new DeskError({ kind: 'invalid-input', message });
}
