import type { Desk } from '../../electron/core/desk';
import type { DeskEvent } from '../../shared/contract';
import { sandboxAdmin } from '../support/desk-harness';

/** The batch benches' helpers: a pool, a timer, the next event, strategies with known targets. */

export async function pool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export function nextEvent(desk: Desk, test: (e: DeskEvent) => boolean): Promise<DeskEvent> {
  return new Promise((resolve) => {
    const stop = desk.subscribe((event) => {
      if (!test(event)) return;
      stop();
      resolve(event);
    });
  });
}

/** `count` new strategies on the sandbox, each with an executed version the app imports. */
export async function strategiesWithKnownTargets(
  desk: Desk,
  baseUrl: string,
  profileId: string,
  count: number,
): Promise<string[]> {
  const created = (await sandboxAdmin(baseUrl, 'POST', '/sandbox/strategies', {
    count,
    holdings: 8,
    executed_version: true,
  })) as { data: { ids: string[]; executed_version_ids: string[] } };
  const { ids, executed_version_ids: versionIds } = created.data;
  const added = nextEvent(
    desk,
    (e) => e.type === 'book-job-changed' && e.job.state !== 'running' && e.job.kind === 'add',
  );
  await desk.book.addMany({ profileId, text: ids.join('\n') });
  await added;
  await pool(
    ids.map((id, i) => [id, versionIds[i]!] as const),
    4,
    ([strategyId, versionId]) => desk.versions.import({ profileId, strategyId, versionId }),
  );
  // The imports left the book's rows of these strategies to work out (book/rows.ts): a screen
  // showing the book reads it after them, which works them out and announces them. Done here,
  // so no side measured later pays for this setup (the first send's window once worked out 700
  // rows in one go, half a second of the host).
  if (desk.store.book.hasDirty(profileId)) {
    const announced = nextEvent(
      desk,
      (e) => e.type === 'book-rows-changed' && e.profileId === profileId,
    );
    await desk.book.summary({ profileId });
    await announced;
  }
  return ids;
}
