import { afterAll, afterEach } from 'vitest';

/**
 * Every suite's setup (vitest.config.ts `setupFiles`): a promise rejected with nobody to handle
 * it fails the test during which it happened, naming its reason, and the file when it happened
 * after the last test. The app leaves no promise unhandled: one that is is a fault left silent
 * (a batch that read "sending" until restart did).
 */
const unhandled = new Map<Promise<unknown>, unknown>();
process.on('unhandledRejection', (reason, promise) => {
  unhandled.set(promise, reason);
});
// Handled a moment late (a rejection awaited after a tick) is handled.
process.on('rejectionHandled', (promise) => {
  unhandled.delete(promise);
});

function failOnUnhandled(): void {
  if (unhandled.size === 0) return;
  const reasons = [...unhandled.values()].map((r) =>
    r instanceof Error ? (r.stack ?? r.message) : String(r),
  );
  unhandled.clear();
  throw new Error(`A promise was rejected and not handled:\n${reasons.join('\n')}`);
}

afterEach(failOnUnhandled);
afterAll(failOnUnhandled);
