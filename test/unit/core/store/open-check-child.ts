/**
 * Opens a data file in a process of its own (the read-only test runs it as another user, since
 * root writes through any file mode) and prints what happened as one JSON line.
 */
import { StoreError, openStore } from '../../../../electron/core/store';

const path = process.argv[2]!;
let outcome: { opened: true } | { code: string; message: string };
try {
  openStore(path).close();
  outcome = { opened: true };
} catch (error) {
  outcome =
    error instanceof StoreError
      ? { code: error.code, message: error.message }
      : { code: 'other', message: String(error) };
}
console.log(JSON.stringify(outcome));
