/**
 * `npm run verify-activity -- FILE`: checks a JSON Lines activity export on its own, without the
 * app (docs/activity.md). Prints "OK: …" (and what the file alone cannot show) and exits 0, or
 * names the first problem and exits 1.
 */
import { verifyActivityExport } from '../electron/core/activity/verify-export';

const path = process.argv[2];
if (!path || process.argv.length > 3) {
  console.error('Usage: npm run verify-activity -- FILE.jsonl');
  process.exit(1);
}
verifyActivityExport(path).then(
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
