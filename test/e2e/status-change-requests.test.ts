import { describe, expect } from 'vitest';
import { chromiumPart } from '../support/e2e-browser';
import { useVersionsE2E } from '../support/e2e-versions-setup';
import { statusChangeRequests } from '../support/status-change-requests';
import { itNeeds } from '../support/system-parts';

/**
 * A status change of a version arrives with what the screens show (the version's line in the
 * list, the strategy's line in the sidebar, the status bar's figures): while the Versions tab
 * and that version's detail are open, the page reads at most the detail again. Chromium against
 * the browser host, the real desk, sandbox and SQLite.
 */
const withChromium = itNeeds(chromiumPart);
const e2e = useVersionsE2E(chromiumPart.available);

describe('a version status change on screen', () => {
  withChromium(
    'costs the page at most one request (the open detail)',
    async () => {
      const changes = await statusChangeRequests(e2e());
      // At least the last two steps were seen with the detail open, the end among them.
      expect(changes.length).toBeGreaterThanOrEqual(2);
      expect(changes.at(-1)).toMatchObject({ status: 'COMPLETE', ended: true });
      for (const change of changes) {
        expect(change.channels.length, JSON.stringify(change)).toBeLessThanOrEqual(1);
        expect(
          change.channels.every((c) => c === 'versions.get'),
          JSON.stringify(change),
        ).toBe(true);
      }
    },
    60_000,
  );
});
