import type { ActivityFilter } from '../../../shared/activity/views';
import { formattedLine, type ExportFile } from '../exports';
import { CRLF, csvCell } from '../csv/cell';
import { kindLabel, payloadOf, summaryLine } from './describe';
import type { ActivityRepository, ActivityRow } from '../store/repositories/activity';

/**
 * The activity log written to a file, oldest first: CSV by the app's one CSV rule (../csv/cell.ts:
 * RFC 4180, formula-like cells neutralized), or JSON Lines
 * with every hashed field and the hashes, which `npm run verify-activity` checks on its own. Written by the app's one export (core/exports:
 * 0600, aside and renamed into place).
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

/** The export's file: the filtered log as it is when its rows are first read. */
export function activityExportFile(
  activity: ActivityRepository,
  request: { filter: ActivityFilter; format: 'csv' | 'jsonl'; profileName: string | null },
  exportedAt: string,
): ExportFile {
  const { filter, format } = request;
  const name = activityExportName(filter, format);
  if (format === 'csv')
    return {
      name,
      header: ACTIVITY_CSV_COLUMNS.join(',') + CRLF,
      *lines() {
        for (const row of activity.iterate(filter, activity.lastSeq()))
          yield formattedLine(csvLine(row));
      },
    };
  // The header counts the entries up to the last one at the time of the header.
  const until = activity.lastSeq();
  const header: ActivityExportHeader = {
    format: ACTIVITY_EXPORT_FORMAT,
    version: 1,
    profileId: filter.profileId,
    profileName: request.profileName,
    filter,
    entries: activity.count(filter, until),
    exportedAt,
  };
  return {
    name,
    header: `${JSON.stringify(header)}\n`,
    *lines() {
      for (const row of activity.iterate(filter, until)) yield formattedLine(`${jsonLine(row)}\n`);
    },
  };
}
