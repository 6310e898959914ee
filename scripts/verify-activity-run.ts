/**
 * What `npm run verify-activity` does with its arguments (scripts/verify-activity.ts is the
 * process around it): checks a JSON Lines activity export on its own or against the app's
 * database, or the team's chain in its PostgreSQL store (docs/activity.md, docs/team.md).
 * Prints "OK: …" (and what was or could not be shown) and answers 0, or names the first
 * problem and answers 1.
 */
import { Client } from 'pg';
import { verifyActivityExport } from '../electron/core/activity/verify-export';
import { checkTeamChain } from '../electron/core/activity/team-verify';

export const USAGE = `Usage: npm run verify-activity -- FILE.jsonl [strategy-desk.sqlite]
       npm run verify-activity -- --team postgres://member@host:5432/team`;

export interface Printer {
  out(line: string): void;
  err(line: string): void;
}

async function verifyTeam(url: string, print: Printer): Promise<number> {
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    print.err(`Cannot connect to the team store: ${(error as Error).message}`);
    return 1;
  }
  try {
    const check = await checkTeamChain(client);
    if (check.brokenAt) {
      print.err(`The team's log does not verify. ${check.brokenAt.reason}`);
      return 1;
    }
    print.out(
      `OK: the team's log holds ${check.entries} entries, each linked to the one before it and matching its hash.`,
    );
    return 0;
  } catch (error) {
    print.err(`Cannot read the team's log: ${(error as Error).message}`);
    return 1;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs the command for `args` (what follows `--`), printing through `print`; the exit code. */
export async function runVerifyActivity(args: string[], print: Printer): Promise<number> {
  if (args[0] === '--team') {
    if (args.length !== 2) {
      print.err(USAGE);
      return 1;
    }
    return verifyTeam(args[1]!, print);
  }
  const [path, log, ...extra] = args;
  if (!path || extra.length > 0) {
    print.err(USAGE);
    return 1;
  }
  try {
    const result = await verifyActivityExport(path, log === undefined ? {} : { log });
    if (!result.ok) {
      print.err(result.message);
      return 1;
    }
    for (const line of [result.message, ...(result.notes ?? [])]) print.out(line);
    return 0;
  } catch (error) {
    print.err(`Cannot read ${path}: ${(error as Error).message}`);
    return 1;
  }
}
