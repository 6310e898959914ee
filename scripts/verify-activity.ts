/**
 * `npm run verify-activity -- FILE [DATABASE]`: checks a JSON Lines activity export on its own,
 * without the app, and, given the app's database file, against the log it came from
 * (docs/activity.md). `npm run verify-activity -- --team URL`: recomputes the team's chain in its
 * PostgreSQL store, connected as a member or the owner (docs/team.md). Prints "OK: …" (and what
 * was or could not be shown) and exits 0, or names the first problem and exits 1.
 */
import { Client } from 'pg';
import { verifyActivityExport } from '../electron/core/activity/verify-export';
import { checkTeamChain } from '../electron/core/activity/team-verify';

const USAGE = `Usage: npm run verify-activity -- FILE.jsonl [strategy-desk.sqlite]
       npm run verify-activity -- --team postgres://member@host:5432/team`;

async function verifyTeam(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    console.error(`Cannot connect to the team store: ${(error as Error).message}`);
    return 1;
  }
  try {
    const check = await checkTeamChain(client);
    if (check.brokenAt) {
      console.error(`The team's log does not verify. ${check.brokenAt.reason}`);
      return 1;
    }
    console.log(
      `OK: the team's log holds ${check.entries} entries, each linked to the one before it and matching its hash.`,
    );
    return 0;
  } catch (error) {
    console.error(`Cannot read the team's log: ${(error as Error).message}`);
    return 1;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const args = process.argv.slice(2);
if (args[0] === '--team') {
  if (args.length !== 2) {
    console.error(USAGE);
    process.exit(1);
  }
  verifyTeam(args[1]!).then((code) => process.exit(code));
} else {
  const [path, log, ...extra] = args;
  if (!path || extra.length > 0) {
    console.error(USAGE);
    process.exit(1);
  }
  verifyActivityExport(path, log === undefined ? {} : { log }).then(
    (result) => {
      if (result.ok)
        for (const line of [result.message, ...(result.notes ?? [])]) console.log(line);
      else console.error(result.message);
      process.exit(result.ok ? 0 : 1);
    },
    (error: unknown) => {
      console.error(`Cannot read ${path}: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
