import { afterAll, beforeAll } from 'vitest';
import { openDeskHarness, type DeskHarness } from './desk-harness';
import { startFakeService, type FakeService } from './fake-service';
import { manyStrategiesSandbox, profileWithCopies } from './many-strategies';

export interface CopiesBehindFake {
  sandbox: Awaited<ReturnType<typeof manyStrategiesSandbox>>;
  /** In front of the sandbox: answers as a test's rule says, or forwards. */
  fake: FakeService;
  h: DeskHarness;
  /** The profile reading the copies through the fake. */
  profileId: string;
  close(): Promise<void>;
}

/**
 * `n` copies of Core Equity in a sandbox, a fake service in front of it, and a desk (versions
 * ending at once unless told) whose profile holds every copy through the fake.
 */
export async function copiesBehindFake(
  n: number,
  options: Parameters<typeof openDeskHarness>[0] = {},
): Promise<CopiesBehindFake> {
  const sandbox = await manyStrategiesSandbox(n, 0);
  const fake = await startFakeService({ upstream: sandbox.baseUrl });
  const h = await openDeskHarness({ stepMs: 0, ...options });
  const profileId = await profileWithCopies(h.desk, { ...sandbox, baseUrl: fake.baseUrl });
  return {
    sandbox,
    fake,
    h,
    profileId,
    async close() {
      await h.close();
      await fake.close();
      await sandbox.close();
    },
  };
}

/**
 * The same for a suite: opened before its tests, closed after them. Its parts are read in the
 * tests (they exist once the suite's `beforeAll` ran).
 */
export function copiesBehindFakeForSuite(
  n: number,
  options: Parameters<typeof openDeskHarness>[0] = {},
): Omit<CopiesBehindFake, 'close'> {
  let parts: CopiesBehindFake | undefined;
  beforeAll(async () => {
    parts = await copiesBehindFake(n, options);
  });
  afterAll(() => parts?.close());
  const opened = () => {
    if (!parts) throw new Error('The suite has not opened its desk yet (beforeAll).');
    return parts;
  };
  return {
    get sandbox() {
      return opened().sandbox;
    },
    get fake() {
      return opened().fake;
    },
    get h() {
      return opened().h;
    },
    get profileId() {
      return opened().profileId;
    },
  };
}
