import Database from 'better-sqlite3';
import type { ActivityFilter } from '../../../shared/activity/views';
import { fileProblem } from './export-lines';
import { activityRepository, type ActivityRow } from '../store/repositories/activity';
import { ChainWalker, chainEntryOfRow } from './verify';

/**
 * An export held against the app's database: the profile's chain in the log is walked whole, each
 * entry's hash recomputed from its content and the hash before it (a stored hash proves nothing
 * about content edited beside it); then each exported entry must still be in the log, hash for
 * hash, and a range's first entry must link to the log's entry before it. This shows what neither
 * alone can: a log rewritten after the export (hashes recomputed from an edit on), or entries cut
 * from the log or from the export's ends.
 */

export interface ExportedLink {
  seq: number;
  chainIndex: number;
  previousHash: string;
  hash: string;
}

/** Null when the export agrees with the log; otherwise the first disagreement, in words. */
export function compareWithLog(
  logPath: string,
  profile: { id: string; name: string },
  filter: ActivityFilter,
  entries: readonly ExportedLink[],
): string | null {
  const unreadable = fileProblem(logPath);
  if (unreadable) return unreadable;
  let db: Database.Database;
  try {
    db = new Database(logPath, { readonly: true, fileMustExist: true });
  } catch (error) {
    return `Cannot open ${logPath}: ${(error as Error).message}`;
  }
  try {
    const broken = logChainProblem(db, profile);
    if (broken) return `The log in ${logPath} does not verify: ${broken}`;
    const hashAt = db.prepare<[string, number], { hash: string }>(
      'SELECT hash FROM activity WHERE profile_id = ? AND chain_index = ?',
    );
    const at = (index: number) => hashAt.get(profile.id, index)?.hash ?? null;
    const first = entries[0];
    if (first && first.chainIndex > 1 && at(first.chainIndex - 1) !== first.previousHash)
      return `Entry ${first.chainIndex} of profile ${profile.name} does not link to entry ${first.chainIndex - 1} of the log in ${logPath}: the log or the export was changed after the export.`;
    for (const entry of entries) {
      const logged = at(entry.chainIndex);
      if (logged === null)
        return `Entry ${entry.chainIndex} of profile ${profile.name} is not in the log in ${logPath}: the log was cut after the export.`;
      if (logged !== entry.hash)
        return `Entry ${entry.chainIndex} of profile ${profile.name} differs from the log in ${logPath}: the log or the export was changed after the export.`;
    }
    // Entries of the filter written up to the export's last one are all in the export, unless
    // some were removed from it (the walk above vouches for the log).
    const last = entries[entries.length - 1];
    const logged = activityRepository({ db, now: () => '' }).count(filter, last?.seq ?? 0);
    if (last && logged !== entries.length)
      return `The log in ${logPath} holds ${logged} entries of this export's filter up to its last one, the export ${entries.length}: entries were removed from the export.`;
    return null;
  } catch (error) {
    return `${logPath} is not a Strategy desk database: ${(error as Error).message}`;
  } finally {
    db.close();
  }
}

/**
 * The profile's whole chain in the log, as the app's own check walks it: every hash recomputed,
 * every link and index followed. Null when it holds, else the first break in words. The entries
 * are named by the profile's name as the export gives it: an edited entry's own may be forged.
 */
function logChainProblem(db: Database.Database, profile: { id: string; name: string }) {
  const walker = new ChainWalker();
  const rows = db
    .prepare<[string], ActivityRow>(
      'SELECT * FROM activity WHERE profile_id = ? ORDER BY chain_index, seq',
    )
    .iterate(profile.id);
  for (const row of rows) {
    const broken = walker.feed({ ...chainEntryOfRow(row), profileName: () => profile.name });
    if (broken) {
      rows.return?.();
      return broken.reason;
    }
  }
  return null;
}
