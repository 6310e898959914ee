import Database from 'better-sqlite3';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../../electron/core/data-folder/lock';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const CHILD = fileURLToPath(new URL('./race-child.ts', import.meta.url));
const ROUNDS = 30;

/** One desk process on the shared data folder, driven line by line (race-child.ts). */
interface DeskProcess {
  child: ChildProcessByStdio<Writable, Readable, null>;
  /** The next line it prints. */
  next(): Promise<string>;
  send(line: string): void;
  exited: Promise<number | null>;
}

function startDeskProcess(dataDir: string, sandboxUrl: string, profileId: string): DeskProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CHILD, dataDir, sandboxUrl, profileId],
    {
      env: { ...process.env, DESK_TEST_SECRET: DEMO_CLIENTS.manager.client_secret },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let at: number;
    while ((at = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    next: () =>
      lines.length > 0
        ? Promise.resolve(lines.shift()!)
        : new Promise<string>((resolve, reject) => {
            waiting.push(resolve);
            void exited.then((code) => reject(new Error(`the desk process exited (${code})`)));
          }),
    send: (line) => child.stdin.write(`${line}\n`),
    exited,
  };
}

/** What the holder's row in the database says: a cleanup of the lock file does not touch it. */
function deleteHolderRow(dataDir: string): void {
  const db = new Database(join(dataDir, 'strategy-desk.sqlite'));
  try {
    const named = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'data_folder_holder'")
      .get();
    if (named) db.exec('DELETE FROM data_folder_holder');
  } finally {
    db.close();
  }
}

async function acceptedAtService(baseUrl: string): Promise<number> {
  const counters = (await sandboxAdmin(baseUrl, 'GET', '/sandbox/counters')) as {
    data: { executions_accepted: Record<string, number> };
  };
  return counters.data.executions_accepted[CORE] ?? 0;
}

/**
 * Two real processes on one data folder, as when a cleanup script or a sync tool deleted the lock
 * file while the app ran: the database itself still lets only one of them claim a draft's
 * execution, round after round, checked against the sandbox's own count of executions.
 */
describe('two processes on one data folder', () => {
  let h: DeskHarness;
  let profileId: string;
  let sandboxUrl: string;
  const running: DeskProcess[] = [];

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    sandboxUrl = h.sandbox()!.baseUrl;
  });
  afterEach(async () => {
    for (const p of running.splice(0)) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  });
  afterAll(async () => {
    // The tests close the harness's desk to leave the folder to the processes: open it to close.
    await h?.restart();
    await h?.close();
  });

  it('with the lock file deleted, a second process is refused: the database names the first', async () => {
    await h.desk.close();
    const first = startDeskProcess(h.dataDir, sandboxUrl, profileId);
    running.push(first);
    expect(await first.next()).toBe('ready');
    rmSync(join(h.dataDir, LOCK_FILE));
    const second = startDeskProcess(h.dataDir, sandboxUrl, profileId);
    running.push(second);
    const said = await second.next();
    expect(said).toContain(`cannot-start Strategy desk is already running with the data folder`);
    expect(said).toContain(`race child ${first.child.pid}, process ${first.child.pid}`);
    expect(await second.exited).toBe(3);
    first.send('quit');
    expect(await first.exited).toBe(0);
  }, 60_000);

  it(`racing executes of one draft, ${ROUNDS} rounds: the service never accepts it twice`, async () => {
    const desk = await h.restart();
    const drafts: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const draft = await desk.drafts.create({
        profileId,
        strategyId: CORE,
        name: `race ${round}`,
        start: 'target',
      });
      drafts.push(draft.id);
    }
    await desk.close();

    const first = startDeskProcess(h.dataDir, sandboxUrl, profileId);
    running.push(first);
    expect(await first.next()).toBe('ready');
    // Every guard outside the journal defeated: the lock file and the database's holder.
    rmSync(join(h.dataDir, LOCK_FILE));
    deleteHolderRow(h.dataDir);
    const second = startDeskProcess(h.dataDir, sandboxUrl, profileId);
    running.push(second);
    expect(await second.next()).toBe('ready');

    const doubles: string[] = [];
    const refusals: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const before = await acceptedAtService(sandboxUrl);
      first.send(`execute ${drafts[round]}`);
      second.send(`execute ${drafts[round]}`);
      const answers = await Promise.all([first.next(), second.next()]);
      const accepted = answers.filter((a) => a.startsWith('accepted '));
      for (const a of answers) if (a.startsWith('refused ')) refusals[a] = (refusals[a] ?? 0) + 1;
      const atService = (await acceptedAtService(sandboxUrl)) - before;
      if (atService !== 1 || accepted.length !== 1)
        doubles.push(`round ${round}: ${answers.join(' / ')}, service +${atService}`);
    }
    console.info(`two-process race refusals: ${JSON.stringify(refusals)}`);
    expect(doubles).toEqual([]);
    // The other call was refused in the app's words: in flight, or the draft already executed.
    expect(
      Object.keys(refusals).filter((r) => !/^refused (execution-blocked|executed-before)$/.test(r)),
    ).toEqual([]);
    first.send('quit');
    second.send('quit');
    expect(await Promise.all([first.exited, second.exited])).toEqual([0, 0]);
  }, 180_000);
});
