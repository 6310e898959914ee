import type { Pool } from 'pg';
import { CHAIN_START } from '../../../shared/activity/kinds';
import { entryHash } from '../store/repositories/activity-canonical';
import { readableTime } from './verify';

/**
 * The team's activity chain (docs/team.md), recomputed on the desk: the database's trigger
 * chains each entry as the desk chains its own log (`sha256hex(previous + "\n" + canonical)`,
 * the first linked to 64 zeros), so the same hash, over the team entry's canonical text, is
 * recomputed here without trusting the database's own functions. Read in batches by seq: each
 * batch is awaited, so the desk's other calls are served between them.
 */

/** What a member connection, a pool or the owner's client can do: run a query. */
export type TeamQueryable = Pick<Pool, 'query'>;

/** One entry of team.activity as read for the check (seq as text: a bigint, exactly). */
export interface TeamChainRow {
  seq: string;
  at: string;
  member: string;
  desk: string;
  kind: string;
  strategy_id: string | null;
  version_id: string | null;
  payload: string;
  previous_hash: string;
  hash: string;
}

export interface TeamChainProblem {
  seq: number;
  at: string;
  member: string;
  /** In words: the entry, what was expected and what was found. */
  reason: string;
}

export interface TeamChainCheck {
  entries: number;
  ok: boolean;
  brokenAt: TeamChainProblem | null;
}

/**
 * The canonical text of a team entry (keys sorted: at, desk, kind, member, payload, seq,
 * strategyId, versionId), as `team.entry_canonical` builds it; the payload is stored canonical.
 */
export function teamEntryCanonical(row: TeamChainRow): string {
  const s = JSON.stringify;
  const orNull = (v: string | null) => (v === null ? 'null' : s(v));
  return (
    `{"at":${s(row.at)},"desk":${s(row.desk)},"kind":${s(row.kind)},"member":${s(row.member)},` +
    `"payload":${row.payload},"seq":${row.seq},"strategyId":${orNull(row.strategy_id)},` +
    `"versionId":${orNull(row.version_id)}}`
  );
}

/** Feeds the team's entries in seq order; stops at the first problem. */
export class TeamChainWalker {
  private last: TeamChainRow | null = null;
  entries = 0;
  problem: TeamChainProblem | null = null;

  feed(row: TeamChainRow): TeamChainProblem | null {
    this.entries += 1;
    if (this.problem) return this.problem;
    const seq = Number(row.seq);
    const label = `Entry ${row.seq} of the team's log (${readableTime(row.at)}, ${row.member} on desk ${row.desk})`;
    const fail = (reason: string) =>
      (this.problem = { seq, at: row.at, member: row.member, reason });
    const expectedSeq = this.last ? Number(this.last.seq) + 1 : 1;
    if (seq !== expectedSeq)
      return fail(
        seq > expectedSeq
          ? `Entry ${expectedSeq} of the team's log is missing: it was removed (expected entry ${expectedSeq}, found entry ${row.seq} next).`
          : `${label} appears out of order: expected entry ${expectedSeq}, found entry ${row.seq}.`,
      );
    const expectedLink = this.last ? this.last.hash : CHAIN_START;
    if (row.previous_hash !== expectedLink)
      return fail(
        `${label} does not link to the entry before it: an entry was replaced, removed or inserted (expected previous hash ${expectedLink}, found ${row.previous_hash}).`,
      );
    const recomputed = entryHash(row.previous_hash, teamEntryCanonical(row));
    if (recomputed !== row.hash)
      return fail(
        `${label} does not match its hash: its content was changed after it was written (expected hash ${recomputed}, found ${row.hash}).`,
      );
    this.last = row;
    return null;
  }
}

/** Rows per read: the hashing of one batch is the longest the desk's other calls wait. */
const TEAM_BATCH = 500;

/** Reads team.activity by seq, batch by batch, and walks its chain (every entry is counted). */
export async function checkTeamChain(
  db: TeamQueryable,
  options: { batchSize?: number } = {},
): Promise<TeamChainCheck> {
  const batchSize = options.batchSize ?? TEAM_BATCH;
  const walker = new TeamChainWalker();
  let after = '0';
  for (;;) {
    const { rows } = await db.query<TeamChainRow>(
      // a.seq, not the text it is read as: entry 10 comes after 9.
      `SELECT a.seq::text AS seq, at, member::text AS member, desk, kind, strategy_id, version_id,
              payload, previous_hash, hash
         FROM team.activity a WHERE a.seq > $1::bigint ORDER BY a.seq LIMIT $2`,
      [after, batchSize],
    );
    for (const row of rows) walker.feed(row);
    if (rows.length < batchSize) break;
    after = rows[rows.length - 1]!.seq;
  }
  return { entries: walker.entries, ok: walker.problem === null, brokenAt: walker.problem };
}
