import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeskEvent } from '../../shared/contract';
import { createDesk, type Desk, type DeskOptions } from '../../electron/core/desk';
import { LOG_FOLDER } from '../../electron/core/log/logger';
import { openSecretStore, type SecretStore } from '../../electron/core/secrets';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox';
import {
  builtInSandbox,
  builtInSandboxWithDemo,
  builtInSandboxWithDemoModel,
} from '../../electron/sandbox/embedded';

/**
 * A desk on real parts: a temp data folder with a real SQLite file, the OS
 * keychain under a unique service name (memory when none answers), and the
 * built-in sandbox over loopback HTTP with fast rebalance steps.
 */
export interface DeskHarness {
  desk: Desk;
  dataDir: string;
  secrets: SecretStore;
  sandbox: () => RunningSandbox | null;
  /** Starts the harness's one sandbox now (the desk would start it on "Try the built-in sandbox"). */
  startSandbox(): Promise<RunningSandbox>;
  events: DeskEvent[];
  /** Resolves with the first event that matches. */
  waitFor(match: (e: DeskEvent) => boolean, timeoutMs?: number): Promise<DeskEvent>;
  /** Closes the desk and opens a new one on the same folder, keychain and sandbox. */
  restart(): Promise<Desk>;
  close(): Promise<void>;
}

export async function openDeskHarness(
  options: Partial<DeskOptions> & {
    stepMs?: number;
    /** The sandbox profile also starts with the demo model and its followers, as the app's does. */
    demoModel?: boolean;
    /** ...and with one of each signal of the attention queue, as the app's does (both). */
    demoAttention?: boolean;
  } = {},
): Promise<DeskHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'strategy-desk-desk-'));
  const secrets = await openSecretStore({ service: `strategy-desk-test-${randomUUID()}` });
  let sandbox: RunningSandbox | null = null;
  const events: DeskEvent[] = [];
  const waiters = new Set<() => void>();
  const shared = async () =>
    (sandbox ??= await startSandbox({ port: 0, stepMs: options.stepMs ?? 20 }));
  const open = () =>
    createDesk({
      dataDir,
      secretStore: secrets,
      // One sandbox for the whole harness: a desk restart finds the same service again.
      sandbox: {
        ...(options.demoAttention
          ? builtInSandboxWithDemo
          : options.demoModel
            ? builtInSandboxWithDemoModel
            : builtInSandbox),
        start: async () => {
          const running = await shared();
          return { baseUrl: running.baseUrl, close: async () => undefined };
        },
      },
      trackerBackoff: { initialMs: 10, factor: 1.5, maxMs: 100 },
      offlineProbeMs: 50,
      ...options,
    });
  let desk = await open();
  const listen = (d: Desk) =>
    d.subscribe((e) => {
      events.push(e);
      for (const w of [...waiters]) w();
    });
  listen(desk);
  const whatHappened = () => describeLastMoments(dataDir, events);
  return {
    get desk() {
      return desk;
    },
    dataDir,
    secrets,
    sandbox: () => sandbox,
    startSandbox: shared,
    events,
    waitFor(match, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No matching desk event within ${timeoutMs} ms${whatHappened()}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async restart() {
      await desk.close();
      desk = await open();
      listen(desk);
      return desk;
    },
    async close() {
      // Leave nothing in the keychain: the harness's service name is unique to this run.
      for (const profile of desk.store.profiles.list()) await secrets.delete(profile.id);
      await desk.close();
      await (sandbox as RunningSandbox | null)?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * What a wait that timed out can tell of why: the desk's last events and the warnings and errors
 * in its log (a listener that failed is logged, not thrown). A flaky wait is a bug to find.
 */
function describeLastMoments(dataDir: string, events: readonly DeskEvent[]): string {
  const last = events.slice(-8).map((e) => {
    const fields = e as { versionId?: string; status?: string | null; ended?: boolean };
    const of = fields.versionId ? ` ${fields.versionId.slice(0, 8)}` : '';
    const status = 'status' in fields ? ` ${fields.status ?? 'null'}` : '';
    return `${e.type}${of}${status}${fields.ended ? ' ended' : ''}`;
  });
  let logged: string[] = [];
  try {
    const folder = join(dataDir, LOG_FOLDER);
    logged = readdirSync(folder)
      .sort()
      .flatMap((f) => readFileSync(join(folder, f), 'utf8').split('\n'))
      .filter((line) => /"level":(40|50|60)/.test(line))
      .slice(-5);
  } catch {
    // No log yet: the events say what there is.
  }
  return `; last events: ${last.join(', ') || 'none'}; log: ${logged.join(' | ') || 'no warning'}`;
}

/** Calls a sandbox admin route. */
export async function sandboxAdmin(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'x-sandbox-admin': '1',
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`sandbox admin ${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}
