import type { TeamActivityFilter, TeamActivityPage } from '../../../shared/activity/team-views';
import { nextDay } from '../store/repositories/activity';
import type { TeamQueryable } from './team-verify';

/**
 * Reading the team's log (team.activity) through a member's connection: a filtered window,
 * newest first, and its total summed from the per-day counts (team migration 002), so neither
 * reads the whole log. The filter's columns each have their index (migration 001).
 */

type Filter = Omit<TeamActivityFilter, 'profileId'>;

interface Where {
  sql: string;
  params: (string | string[])[];
}

/** The filter as SQL: over the entries (`at` compared as text) or over the per-day counts. */
function whereOf(filter: Filter, over: 'entries' | 'counts'): Where {
  const parts: string[] = [];
  const params: (string | string[])[] = [];
  const param = (value: string | string[]) => `$${params.push(value)}`;
  // One kind as an equality: the (kind, seq) index then gives the newest first.
  if (filter.kinds?.length === 1) parts.push(`kind = ${param(filter.kinds[0]!)}`);
  else if (filter.kinds !== undefined) parts.push(`kind = ANY(${param(filter.kinds)}::text[])`);
  if (filter.member !== undefined) parts.push(`member = ${param(filter.member)}`);
  // A count of entries naming no strategy is keyed '': a filter's strategy is never ''.
  if (filter.strategyId !== undefined) parts.push(`strategy_id = ${param(filter.strategyId)}`);
  const counts = over === 'counts';
  if (filter.from !== undefined) parts.push(`${counts ? 'day' : 'at'} >= ${param(filter.from)}`);
  if (filter.to !== undefined)
    parts.push(counts ? `day <= ${param(filter.to)}` : `at < ${param(nextDay(filter.to))}`);
  return { sql: parts.length === 0 ? 'true' : parts.join(' AND '), params };
}

/** The SQL a window and its total are read with (the query plans are tested). */
export function teamActivityQueries(filter: Filter) {
  const counts = whereOf(filter, 'counts');
  const entries = whereOf(filter, 'entries');
  const n = entries.params.length;
  return {
    total: {
      sql: `SELECT coalesce(sum(entries), 0)::text AS total FROM ${
        filter.from === undefined && filter.to === undefined
          ? 'team.activity_totals'
          : 'team.activity_counts'
      } WHERE ${counts.sql}`,
      params: counts.params,
    },
    /**
     * Then the limit and the offset. The window's seqs first, from the filter's index alone
     * (each holds seq), then only those entries read whole.
     */
    page: {
      sql: `SELECT a.seq::text AS seq, at, member::text AS member, desk, kind, strategy_id, payload
         FROM team.activity a WHERE a.seq IN (SELECT w.seq FROM team.activity w WHERE ${entries.sql}
           ORDER BY w.seq DESC LIMIT $${n + 1} OFFSET $${n + 2}) ORDER BY a.seq DESC`,
      params: entries.params,
    },
  };
}

export async function teamActivityPage(
  db: TeamQueryable,
  filter: Filter,
  offset: number,
  limit: number,
): Promise<TeamActivityPage> {
  const { total: totalQuery, page: pageQuery } = teamActivityQueries(filter);
  const [total, page] = await Promise.all([
    db.query<{ total: string }>(totalQuery.sql, totalQuery.params),
    db.query<{
      seq: string;
      at: string;
      member: string;
      desk: string;
      kind: string;
      strategy_id: string | null;
      payload: string;
    }>(pageQuery.sql, [...pageQuery.params, limit, offset]),
  ]);
  return {
    total: Number(total.rows[0]!.total),
    entries: page.rows.map((row) => ({
      seq: Number(row.seq),
      at: row.at,
      member: row.member,
      desk: row.desk,
      kind: row.kind,
      strategyId: row.strategy_id,
      payload: row.payload,
    })),
  };
}
