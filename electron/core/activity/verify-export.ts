import { z } from 'zod';
import { ACTIVITY_KINDS } from '../../../shared/activity/kinds';
import { outsideActivityFilter } from '../../../shared/activity/filter';
import { activityFilter } from '../../../shared/activity/views';
import { canonicalJson } from '../store/repositories/activity-canonical';
import { ACTIVITY_EXPORT_FORMAT, jsonLine } from './export';
import { exportLines, ExportFileProblem, fileProblem } from './export-lines';
import { compareWithLog, type ExportedLink } from './verify-against-log';
import { ChainWalker } from './verify';

/**
 * Checks a JSON Lines export on its own (no app, no database): every line exactly as the app
 * writes it, every entry's hash recomputed from its fields, each entry linked to the one before
 * it, every entry within the header's filter, and, when the export was not filtered by strategy
 * or kind, no index missing in between. What a file alone cannot show is said in `notes`.
 */

const header = z.object({
  format: z.literal(ACTIVITY_EXPORT_FORMAT),
  version: z.literal(1),
  profileId: z.string(),
  profileName: z.string().nullable(),
  filter: activityFilter,
  entries: z.number().int().nonnegative(),
  exportedAt: z.string(),
});

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits');
const line = z
  .object({
    seq: z.number().int().positive(),
    profileId: z.string(),
    chainIndex: z.number().int().positive(),
    at: z.string(),
    kind: z.enum(ACTIVITY_KINDS),
    strategyId: z.string().nullable(),
    versionId: z.string().nullable(),
    refersTo: z.number().int().positive().nullable(),
    payload: z.record(z.string(), z.unknown()),
    previousHash: hex64,
    hash: hex64,
  })
  .strict();
type Line = z.infer<typeof line>;

export type ExportCheck =
  { ok: true; message: string; entries: number; notes?: string[] } | { ok: false; message: string };

const problem = (message: string): ExportCheck => ({ ok: false, message });

const issues = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.join('.') || 'line'} ${i.message}`).join('; ');

/**
 * `log`: the app's database file, to hold the export against (each entry still there, hash for
 * hash); without it the export is checked on its own.
 */
export async function verifyActivityExport(
  path: string,
  options: { log?: string } = {},
): Promise<ExportCheck> {
  const unreadable = fileProblem(path);
  if (unreadable) return problem(unreadable);
  try {
    return await verifyLines(exportLines(path), options.log);
  } catch (error) {
    if (error instanceof ExportFileProblem) return problem(error.message);
    return problem(`Cannot read ${path}: ${(error as Error).message}`);
  }
}

async function verifyLines(
  lines: AsyncGenerator<string, void, undefined>,
  log: string | undefined,
): Promise<ExportCheck> {
  const links: ExportedLink[] = [];
  let head: z.infer<typeof header> | null = null;
  let walker: ChainWalker | null = null;
  let first: Line | null = null;
  let last: Line | null = null;
  /** The profile's name as its hashed entries give it (the header is covered by no hash). */
  let entriesName: string | null = null;
  let number = 0;
  for await (const text of lines) {
    number += 1;
    if (text === '') return problem(`Line ${number} is empty: the app writes no empty line.`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      if (number > 1) return problem(`Line ${number} is not JSON.`);
      return problem(
        text.startsWith('seq,chain_index,')
          ? 'This is a CSV export: only a JSON Lines export (.jsonl) holds what is needed to verify it.'
          : 'Line 1 is not JSON: this is not a Strategy desk activity export (JSON Lines).',
      );
    }
    if (!head) {
      const parsed = header.safeParse(json);
      if (!parsed.success)
        return problem(
          `Line 1 is not the header of a Strategy desk activity export: ${issues(parsed.error)}.`,
        );
      head = parsed.data;
      if (head.filter.profileId !== head.profileId)
        return problem('Line 1 names one profile and filters by another: the header was edited.');
      const filtered = head.filter.strategyId !== undefined || head.filter.kinds !== undefined;
      walker = new ChainWalker({
        allowGaps: filtered,
        startAnywhere: filtered || head.filter.from !== undefined,
      });
      continue;
    }
    const parsed = line.safeParse(json);
    if (!parsed.success)
      return problem(`Line ${number} is not an activity entry: ${issues(parsed.error)}.`);
    const entry = parsed.data;
    if (entry.profileId !== head.profileId)
      return problem(`Line ${number} belongs to another profile (${entry.profileId}).`);
    let payloadCanonical: string;
    try {
      payloadCanonical = canonicalJson(entry.payload);
    } catch (error) {
      return problem(`Line ${number}: ${(error as Error).message}`);
    }
    // Spaces, key order, escapes or a key given twice change no hash but are edits all the same.
    const written = jsonLine({
      seq: entry.seq,
      profile_id: entry.profileId,
      chain_index: entry.chainIndex,
      at: entry.at,
      kind: entry.kind,
      strategy_id: entry.strategyId,
      version_id: entry.versionId,
      refers_to: entry.refersTo,
      payload: payloadCanonical,
      previous_hash: entry.previousHash,
      hash: entry.hash,
    });
    if (written !== text)
      return problem(
        `Line ${number} is not written as the app writes it (its spacing, key order, escapes or a repeated key differ): it was edited after the export.`,
      );
    const outside = outsideActivityFilter(entry, head.filter);
    if (outside) return problem(`Line ${number} does not belong in this export: ${outside}.`);
    const name = entry.payload.profileName;
    const broken = walker!.feed({
      ...entry,
      payloadCanonical,
      profileName: () => (typeof name === 'string' ? name : head!.profileName),
    });
    if (broken) {
      // An entry said missing may only have been moved further down the file.
      if (last !== null && broken.chainIndex === last.chainIndex + 1)
        for await (const rest of lines)
          if (rest.includes(`"chainIndex":${broken.chainIndex},`))
            return problem(
              `Entry ${broken.chainIndex} of profile ${head.profileName ?? head.profileId} is out of place: it comes later in the file than entry ${entry.chainIndex} (lines were reordered).`,
            );
      return problem(broken.reason);
    }
    if (typeof name === 'string') entriesName = name;
    first ??= entry;
    last = entry;
    // Only the links are kept (not the payloads) for holding against the log.
    if (log !== undefined)
      links.push({
        seq: entry.seq,
        chainIndex: entry.chainIndex,
        previousHash: entry.previousHash,
        hash: entry.hash,
      });
  }
  if (!head) return problem('The file is empty: it has no header line.');
  const count = walker!.entries;
  if (count !== head.entries)
    return problem(
      `The header announces ${head.entries} entries but the file holds ${count}: entries were removed or added.`,
    );
  const { strategyId, kinds, from, to } = head.filter;
  // A whole log's last entry was written under the profile's present name (a rename is an entry).
  const whole = strategyId === undefined && kinds === undefined && !from && !to;
  if (whole && entriesName !== null && head.profileName !== entriesName)
    return problem(
      `The header names the profile “${head.profileName}” but its entries name it “${entriesName}”: the header was edited after the export.`,
    );
  const profile = entriesName ?? head.profileName ?? head.profileId;
  const differs =
    log === undefined
      ? null
      : compareWithLog(log, { id: head.profileId, name: profile }, head.filter, links);
  if (differs) return problem(differs);
  const found = notesOf(head, first, last, entriesName, log);
  // Only what a file alone cannot show: a whole export has nothing to add.
  const notes = found.length > 0 ? { notes: found } : {};
  if (count === 0 || !first || !last)
    return { ok: true, entries: 0, ...notes, message: `OK: 0 entries of profile ${profile}` };
  const filteredBy = [strategyId && `strategy ${strategyId}`, kinds && 'kind']
    .filter(Boolean)
    .join(' and ');
  return {
    ok: true,
    entries: count,
    ...notes,
    message: filteredBy
      ? `OK: ${count} entries of profile ${profile} filtered by ${filteredBy}, from chain entry ${first.chainIndex} to ${last.chainIndex}`
      : `OK: ${count} entries, chain ${first.chainIndex}..${last.chainIndex} of profile ${profile}`,
  };
}

/** What this file alone cannot show, and the hashes that tie it to the log. */
function notesOf(
  head: z.infer<typeof header>,
  first: Line | null,
  last: Line | null,
  entriesName: string | null,
  log: string | undefined,
): string[] {
  const notes: string[] = [];
  if (entriesName !== null && head.profileName !== null && head.profileName !== entriesName)
    notes.push(
      `The header names the profile “${head.profileName}”, its last entry “${entriesName}” (the header is covered by no hash).`,
    );
  if (log !== undefined) {
    notes.push(
      `Held against the log in ${log}: the profile's chain there holds (every entry's hash recomputed from its content), every entry of this export is in it, hash for hash, and none of the log's entries of this export's filter up to the last is missing${first && first.chainIndex > 1 ? '; the first links to the entry before it there' : ''}.`,
    );
    return notes;
  }
  if (head.filter.strategyId !== undefined || head.filter.kinds !== undefined) {
    notes.push(
      'Each entry matches its hash, but entries left out by the filter are not in this file, so one removed from it cannot be seen here: export without a strategy or kind filter to check the chain whole, or hold it against the log.',
    );
    return notes;
  }
  if (first && first.chainIndex > 1)
    notes.push(
      `Entry ${first.chainIndex} links to ${first.previousHash}, the hash of entry ${first.chainIndex - 1}, which is not in this file: hold it against the log (or compare it with an earlier export) to tie this range to the chain.`,
    );
  if (last && (head.filter.from !== undefined || head.filter.to !== undefined))
    notes.push(
      `Entries cut from either end of the range, with the header's count changed, cannot be seen in this file alone: entry ${last.chainIndex}'s hash ${last.hash} must be in the log or a later export.`,
    );
  return notes;
}
