/**
 * `npm run verify-activity -- FILE [DATABASE]`: checks a JSON Lines activity export on its own,
 * without the app, and, given the app's database file, against the log it came from
 * (docs/activity.md). `npm run verify-activity -- --team URL`: recomputes the team's chain in its
 * PostgreSQL store, connected as a member or the owner (docs/team.md). Prints "OK: …" (and what
 * was or could not be shown) and exits 0, or names the first problem and exits 1.
 */
import { runVerifyActivity } from './verify-activity-run';

runVerifyActivity(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then((code) => process.exit(code));
