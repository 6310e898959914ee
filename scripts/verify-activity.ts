/**
 * `npm run verify-activity -- FILE [DATABASE]`: checks a JSON Lines activity export on its own,
 * without the app, and, given the app's database file, against the log it came from
 * (docs/activity.md). Prints "OK: …" (and what was or could not be shown) and exits 0, or names
 * the first problem and exits 1.
 */
import { verifyActivityExport } from '../electron/core/activity/verify-export';

const [path, log, ...extra] = process.argv.slice(2);
if (!path || extra.length > 0) {
  console.error('Usage: npm run verify-activity -- FILE.jsonl [strategy-desk.sqlite]');
  process.exit(1);
}
verifyActivityExport(path, log === undefined ? {} : { log }).then(
  (result) => {
    if (result.ok) for (const line of [result.message, ...(result.notes ?? [])]) console.log(line);
    else console.error(result.message);
    process.exit(result.ok ? 0 : 1);
  },
  (error: unknown) => {
    console.error(`Cannot read ${path}: ${(error as Error).message}`);
    process.exit(1);
  },
);
