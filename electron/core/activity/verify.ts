import { CHAIN_START } from '../../../shared/activity/kinds';
import type { ActivityCheck } from '../../../shared/activity/views';
import {
  entryCanonical,
  entryHash,
  type HashedFields,
} from '../store/repositories/activity-canonical';
import { runInSlices } from '../slices';
import { payloadOf } from './describe';
import type { ActivityRow } from '../store/repositories/activity';

/**
 * Walks hash chains entry by entry and says plainly where the first one breaks. Shared by the
 * app (its database) and `npm run verify-activity` (a JSON Lines export).
 */

export interface ChainEntry extends HashedFields {
  /** The payload's canonical JSON text, exactly as hashed. */
  payloadCanonical: string;
  previousHash: string;
  hash: string;
  /** How the entry names its profile, read only for a message. */
  profileName: () => string | null;
}

export interface ChainProblem {
  seq: number;
  profileId: string;
  chainIndex: number;
  at: string;
  reason: string;
}

export interface WalkOptions {
  /** An export may start mid-chain (a date range): its first entry's link is not checked. */
  startAnywhere?: boolean;
  /** An export filtered by strategy or kind skips indexes: links are checked across neighbours only. */
  allowGaps?: boolean;
}

/** "2026-11-20 14:03 UTC". */
export const readableTime = (at: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(at) ? `${at.slice(0, 10)} ${at.slice(11, 16)} UTC` : at;

/** Chain indexes and seqs count from 1. */
const isPlace = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;

/** Feeds entries in chain order (profile by profile, by chain index); stops at the first problem. */
export class ChainWalker {
  private profileId: string | null = null;
  private last: ChainEntry | null = null;
  entries = 0;
  problem: ChainProblem | null = null;

  constructor(private readonly options: WalkOptions = {}) {}

  feed(entry: ChainEntry): ChainProblem | null {
    this.entries += 1;
    if (this.problem) return this.problem;
    if (entry.profileId !== this.profileId) {
      this.profileId = entry.profileId;
      this.last = null;
    }
    const last = this.last;
    // An edited entry may have lost its name: the one before it says it too.
    const name = () => entry.profileName() ?? last?.profileName() ?? entry.profileId;
    const label = (index: number) =>
      `Entry ${index} of profile ${name()} (${readableTime(String(entry.at))})`;
    // An edited file may hold any value of any type in any column: the problem reports it as text.
    const fail = (chainIndex: number, reason: string) =>
      (this.problem = {
        seq: entry.seq,
        profileId: String(entry.profileId),
        chainIndex,
        at: String(entry.at),
        reason,
      });
    const expected = last ? last.chainIndex + 1 : this.options.startAnywhere ? null : 1;
    const placed = () =>
      `An entry of profile ${name()} (${readableTime(String(entry.at))}, seq ${String(entry.seq)})`;
    if (!isPlace(entry.chainIndex))
      return fail(
        expected ?? 1,
        `${placed()} has no valid place in its chain (chain index ${String(entry.chainIndex)}): it was edited after it was written.`,
      );
    if (!isPlace(entry.seq))
      return fail(
        entry.chainIndex,
        `${placed()} has no valid place in the log (seq ${String(entry.seq)}): it was edited after it was written.`,
      );
    if (expected !== null && entry.chainIndex !== expected && !this.options.allowGaps) {
      if (entry.chainIndex > expected)
        return fail(
          expected,
          last
            ? `Entry ${expected} of profile ${name()} is missing: the chain jumps from ${last.chainIndex} to ${entry.chainIndex}.`
            : `Entry 1 of profile ${name()} is missing: the chain starts at ${entry.chainIndex}.`,
        );
      return fail(
        entry.chainIndex,
        `${label(entry.chainIndex)} appears twice or out of order: expected entry ${expected}.`,
      );
    }
    if (entryHash(entry.previousHash, entryCanonical(entry, entry.payloadCanonical)) !== entry.hash)
      return fail(
        entry.chainIndex,
        `${label(entry.chainIndex)} does not match its hash: its content was changed after it was written.`,
      );
    const linked =
      last && last.chainIndex + 1 === entry.chainIndex
        ? entry.previousHash === last.hash
        : entry.chainIndex === 1
          ? entry.previousHash === CHAIN_START
          : true;
    if (!linked)
      return fail(
        entry.chainIndex,
        `${label(entry.chainIndex)} does not link to the entry before it: an entry was replaced, removed or inserted.`,
      );
    if (last && entry.seq <= last.seq)
      return fail(
        entry.chainIndex,
        `${label(entry.chainIndex)} is out of order: it was written before entry ${last.chainIndex}.`,
      );
    this.last = entry;
    return null;
  }
}

export function chainEntryOfRow(row: ActivityRow): ChainEntry {
  return {
    seq: row.seq,
    profileId: row.profile_id,
    chainIndex: row.chain_index,
    at: row.at,
    kind: row.kind,
    strategyId: row.strategy_id,
    versionId: row.version_id,
    refersTo: row.refers_to,
    payloadCanonical: row.payload,
    previousHash: row.previous_hash,
    hash: row.hash,
    profileName: () => {
      const name = payloadOf(row).profileName;
      return typeof name === 'string' ? name : null;
    },
  };
}

/** 128 million entries' seqs at one byte each: beyond, a seq is only noted as there. */
const MAX_SEEN = 2 ** 27;

/**
 * The whole log's walk: every chain, and the log's own numbering. `seq` runs 1, 2, 3… across all
 * profiles without gaps (each entry takes the next one), so a hole is an entry removed from the
 * file, even the newest of a profile's chain, which that chain alone cannot show.
 */
class LogWalker {
  readonly chains = new ChainWalker();
  /** Which seqs were met, one byte each: a sort of a million seqs would hold the desk. */
  private seen = new Uint8Array(1024);
  /** Seqs past what `seen` may grow to (a file edited to a huge seq): a hole lies below them. */
  private beyond = false;
  /** Each profile's last entry, as walked (chain order). */
  private readonly tails = new Map<string, ChainEntry>();

  /**
   * `lastSeq`: the newest entry when the walk began. A walk in slices may meet entries written
   * since in one chain and not in another it had passed already: only the numbering up to
   * there is whole for sure.
   */
  constructor(private readonly lastSeq = Infinity) {}

  feed(row: ActivityRow): void {
    const entry = chainEntryOfRow(row);
    this.chains.feed(entry);
    if (entry.seq <= this.lastSeq && Number.isSafeInteger(entry.seq) && entry.seq >= 1)
      this.mark(entry.seq);
    this.tails.set(entry.profileId, entry);
  }

  private mark(seq: number): void {
    if (seq >= MAX_SEEN) {
      this.beyond = true;
      return;
    }
    if (seq >= this.seen.length) {
      const grown = new Uint8Array(Math.max(seq + 1, this.seen.length * 2));
      grown.set(this.seen);
      this.seen = grown;
    }
    this.seen[seq] = 1;
  }

  result(checkedAt: string): ActivityCheck {
    const problem = this.chains.problem ?? this.missingSeq();
    return { checkedAt, entries: this.chains.entries, ok: problem === null, brokenAt: problem };
  }

  private missingSeq(): ChainProblem | null {
    // The first seq not met below the highest met: seqs run 1, 2, 3… without gaps.
    const highest = this.beyond ? MAX_SEEN : this.seen.lastIndexOf(1);
    const hole = highest < 1 ? 0 : this.seen.indexOf(0, 1);
    if (hole < 1 || hole > highest) return null;
    // Only a chain that ends before the hole can have lost its newest entries there.
    const before = [...this.tails.values()]
      .filter((tail) => tail.seq < hole)
      .sort((a, b) => b.seq - a.seq);
    const named = before.map((t) => t.profileName() ?? t.profileId);
    const whose =
      named.length === 0
        ? 'a profile whose entries were all removed'
        : named.length === 1
          ? `profile ${named[0]} (whose chain now ends at entry ${before[0]!.chainIndex})`
          : `one of the profiles ${named.join(', ')}`;
    // Named by the entry the cut chain now ends at: it is there to open.
    const tail = before[0];
    return {
      seq: tail?.seq ?? hole,
      profileId: tail?.profileId ?? '',
      chainIndex: tail?.chainIndex ?? 1,
      at: tail?.at ?? '',
      reason:
        `Entry ${hole} of the whole log (in the order entries were written) is missing: it was removed from the file. ` +
        `Every chain still links, so it was among the newest entries of ${whose}.`,
    };
  }
}

/** Walks every chain of the database (rows in chain order) and the log's numbering. */
export function checkChains(
  rows: Iterable<ActivityRow>,
  checkedAt: string,
  lastSeq?: number,
): ActivityCheck {
  const walker = new LogWalker(lastSeq);
  // Past a break the walk only counts, so `entries` is the whole log.
  for (const row of rows) walker.feed(row);
  return walker.result(checkedAt);
}

/** The same walk in slices, letting the event loop run in between (the one check the desk runs). */
export async function checkChainsInSlices(
  rows: Iterable<ActivityRow>,
  checkedAt: () => string,
  options: { sliceSize?: number; lastSeq?: number } = {},
): Promise<ActivityCheck> {
  const walker = await runInSlices(walkInSlices(rows, options.sliceSize ?? 2000, options.lastSeq));
  return walker.result(checkedAt());
}

function* walkInSlices(
  rows: Iterable<ActivityRow>,
  sliceSize: number,
  lastSeq: number | undefined,
): Generator<void, LogWalker> {
  const walker = new LogWalker(lastSeq);
  let inSlice = 0;
  for (const row of rows) {
    walker.feed(row);
    if (++inSlice < sliceSize) continue;
    inSlice = 0;
    yield;
  }
  return walker;
}
