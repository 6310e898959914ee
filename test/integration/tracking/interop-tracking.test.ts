import { afterEach, describe, expect, it } from 'vitest';
import { jsonAnswer, versionPathIds, type FakeService } from '../../support/fake-service';
import { openInteropDesk, row, FRESH, type InteropDesk } from '../../support/interop-desk';

/**
 * A service whose reads lag behind its writes (a replica): the new version is unknown to a poll
 * or two after the 202. Through a manager's whole flow on the real desk, SQLite and tracker.
 */
let d: InteropDesk | undefined;
afterEach(async () => {
  await d?.close();
  d = undefined;
});

/** The version reads answer 404 while `lagging()` says so; everything else is forwarded. */
function lagging(fake: FakeService, lag: () => boolean): { misses: () => number } {
  let misses = 0;
  fake.answer(async (req, forward) => {
    if (req.method === 'GET' && versionPathIds(req.path) && lag()) {
      misses++;
      return jsonAnswer(404, { errors: { detail: 'Not found' } });
    }
    return forward();
  });
  return { misses: () => misses };
}

describe('a version the service does not know yet while it is followed', () => {
  it('a few 404s after the 202: following goes on with backoff, says so, and ends COMPLETE', async () => {
    d = await openInteropDesk({ versionLagMs: 60_000 });
    let left = 3;
    const seen = lagging(d.fake, () => left-- > 0);
    const version = await d.execute([row('AAPL', '10')]);
    const problem = await d.harness.waitFor(
      (e) => e.type === 'version-tracking-changed' && e.trackingProblem !== null,
    );
    expect(problem).toMatchObject({
      trackingProblem: { stopped: false, waitingFor: null },
    });
    const message = (problem as { trackingProblem: { message: string } }).trackingProblem.message;
    expect(message).toMatch(/does not know this version/);
    expect(message).toMatch(/keeps looking for up to 1 minute/);
    const ended = await d.ended(version.id);
    expect(ended.status).toBe('COMPLETE');
    expect(ended.trackingProblem).toBeNull();
    expect(seen.misses()).toBe(3);
  });

  it('still unknown past the bound: following stops and says so; "Check now" picks it up again', async () => {
    d = await openInteropDesk({ versionLagMs: 300 });
    let gone = true;
    lagging(d.fake, () => gone);
    const version = await d.execute([row('AAPL', '10')]);
    const ref = { profileId: d.profileId, strategyId: FRESH, versionId: version.id };
    await d.harness.waitFor(
      (e) =>
        e.type === 'version-tracking-changed' &&
        e.versionId === version.id &&
        e.trackingProblem?.stopped === true,
    );
    const stuck = await d.harness.desk.versions.get(ref);
    expect(stuck.status).toBe('PENDING');
    expect(stuck.tracking).toBe(false);
    expect(stuck.trackingProblem!.message).toMatch(/stopped/);
    expect(stuck.trackingProblem!.message).toMatch(/Check now/);

    gone = false;
    await d.harness.desk.versions.checkNow(ref);
    const ended = await d.ended(version.id);
    expect(ended.status).toBe('COMPLETE');
    expect(ended.trackingProblem).toBeNull();
  });
});
