/**
 * status_change_requests (docs/testing.md, Speed): the most browser host requests (`POST /api/*`)
 * the renderer makes after one status change of a version it shows, with the Versions tab and that
 * version's detail open, as a version is executed in Chromium against the browser host, the real
 * desk, sandbox and SQLite (test/support/status-change-requests.ts). A count, not a time. Goal: at
 * most 1 (the detail's own read). Omitted (with the reason) without Chromium.
 */
import { chromiumPart } from '../support/e2e-browser';
import { openVersionsE2E } from '../support/e2e-versions-setup';
import { statusChangeRequests } from '../support/status-change-requests';

export default async function statusChangeBench(): Promise<Record<string, number>> {
  if (!chromiumPart.available) {
    console.log(`status_change_requests omitted: ${chromiumPart.why}`);
    return {};
  }
  const e2e = await openVersionsE2E();
  try {
    const changes = await statusChangeRequests(e2e);
    for (const change of changes)
      console.log(`  ${String(change.status)}: ${change.channels.join(', ') || 'no request'}`);
    return { status_change_requests: Math.max(...changes.map((c) => c.channels.length)) };
  } finally {
    await e2e.close();
  }
}
