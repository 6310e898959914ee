import type { ActivityFilter } from '../../../shared/activity/views';
import { writeOrderReportLines, type OrderReportWritten, type PartialFiles } from '../reports';
import { CRLF, csvCell } from '../csv/cell';
import { kindLabel, payloadOf, summaryLine } from './describe';
import type { ActivityRepository, ActivityRow } from '../store/repositories/activity';

/**
 * The activity log written to a file, oldest first: CSV by the app's one CSV rule (../csv/cell.ts:
 * RFC 4180, formula-like cells neutralized) and the order reports' writer (0600, written aside
 * and renamed into place), or JSON Lines
 * with every hashed field and the hashes, which `npm run verify-activity` checks on its own.
 */

export const ACTIVITY_EXPORT_FORMAT = 'strategy-desk-activity';

export const ACTIVITY_CSV_COLUMNS = [
  'seq',
  'chain_index',
  'at',
  'profile',
  'kind',
  'strategy_id',
  'version_id',
  'refers_to',
  'summary',
  'payload',
  'previous_hash',
  'hash',
] as const;

function csvLine(row: ActivityRow): string {
  const p = payloadOf(row);
  const cells = [
    row.seq,
    row.chain_index,
    row.at,
    typeof p.profileName === 'string' ? p.profileName : row.profile_id,
    kindLabel(row),
    row.strategy_id,
    row.version_id,
    row.refers_to,
    summaryLine(row, p),
    row.payload,
    row.previous_hash,
    row.hash,
  ];
  return cells.map(csvCell).join(',') + CRLF;
}

/** One JSON line: the hashed fields (payload exactly as hashed) and both hashes. */
export function jsonLine(row: ActivityRow): string {
  const s = JSON.stringify;
  return (
    `{"seq":${row.seq},"profileId":${s(row.profile_id)},"chainIndex":${row.chain_index},` +
    `"at":${s(row.at)},"kind":${s(row.kind)},"strategyId":${s(row.strategy_id)},` +
    `"versionId":${s(row.version_id)},"refersTo":${s(row.refers_to)},"payload":${row.payload},` +
    `"previousHash":${s(row.previous_hash)},"hash":${s(row.hash)}}`
  );
}

export interface ActivityExportHeader {
  format: typeof ACTIVITY_EXPORT_FORMAT;
  version: 1;
  profileId: string;
  profileName: string | null;
  filter: ActivityFilter;
  entries: number;
  exportedAt: string;
}

/** The name the save dialog offers. */
export function activityExportName(filter: ActivityFilter, format: 'csv' | 'jsonl'): string {
  const range =
    filter.from || filter.to ? `-${filter.from ?? 'start'}-to-${filter.to ?? 'now'}` : '';
  const scope = filter.strategyId ? `-strategy-${filter.strategyId}` : '';
  return `activity${scope}${range}.${format}`;
}

const NUL = '\0';

export async function writeActivityExport(
  activity: ActivityRepository,
  request: { filter: ActivityFilter; format: 'csv' | 'jsonl'; profileName: string | null },
  path: string,
  options: { exportedAt: string; onProgress?: (rows: number) => void; partial?: PartialFiles },
): Promise<OrderReportWritten> {
  const { filter, format } = request;
  const until = activity.lastSeq();
  const rows = activity.iterate(filter, until);
  if (format === 'csv') {
    // A NUL-led line is written as it is (see reports/write.ts).
    const lines = (function* () {
      for (const row of rows) yield NUL + csvLine(row);
    })();
    return writeOrderReportLines(lines, path, {
      header: ACTIVITY_CSV_COLUMNS.join(',') + CRLF,
      ...(options.onProgress && { onProgress: options.onProgress }),
      ...(options.partial && { partial: options.partial }),
    });
  }
  const header: ActivityExportHeader = {
    format: ACTIVITY_EXPORT_FORMAT,
    version: 1,
    profileId: filter.profileId,
    profileName: request.profileName,
    filter,
    entries: activity.count(filter, until),
    exportedAt: options.exportedAt,
  };
  const lines = (function* () {
    for (const row of rows) yield `${NUL}${jsonLine(row)}\n`;
  })();
  return writeOrderReportLines(lines, path, {
    header: `${JSON.stringify(header)}\n`,
    ...(options.onProgress && { onProgress: options.onProgress }),
    ...(options.partial && { partial: options.partial }),
  });
}
