import Database from 'better-sqlite3';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDesk } from '../../../electron/core/desk';
import { DataFolderInUseError } from '../../../electron/core/data-folder/lock';
import { MemorySecretStore } from '../../../electron/core/secrets';
import { ensureRendererBuilt } from '../../../electron/host/build-renderer';
import { spawnHost, type HostProcess } from '../../support/host-process';

const modeOf = (path: string) => statSync(path).mode & 0o777;
let dataDir: string;
const hosts: HostProcess[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'strategy-desk-folder-'));
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.killHard();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the data folder at rest', () => {
  it('is 0700 with 0600 files, whatever the umask, and older looser modes are narrowed', async () => {
    chmodSync(dataDir, 0o755);
    mkdirSync(join(dataDir, 'exports'), { mode: 0o755 });
    writeFileSync(join(dataDir, 'exports', 'orders.csv'), 'a,b\n', { mode: 0o644 });
    writeFileSync(join(dataDir, 'window-state.json'), '{}', { mode: 0o666 });
    // Not the app's: a folder chosen by hand may hold other files, left as they are.
    writeFileSync(join(dataDir, 'run.sh'), 'echo hi', { mode: 0o755 });
    const umask = process.umask(0);
    const desk = await createDesk({ dataDir, secretStore: new MemorySecretStore() });
    process.umask(umask);
    await desk.profiles.list({});
    const db = join(dataDir, 'strategy-desk.sqlite');
    expect({
      folder: modeOf(dataDir),
      db: modeOf(db),
      wal: modeOf(`${db}-wal`),
      shm: modeOf(`${db}-shm`),
      exports: modeOf(join(dataDir, 'exports')),
      csv: modeOf(join(dataDir, 'exports', 'orders.csv')),
      window: modeOf(join(dataDir, 'window-state.json')),
      other: modeOf(join(dataDir, 'run.sh')),
    }).toEqual({
      folder: 0o700,
      db: 0o600,
      wal: 0o600,
      shm: 0o600,
      exports: 0o700,
      csv: 0o600,
      window: 0o600,
      other: 0o755,
    });
    await desk.close();
  });
});

describe('one process per data folder', () => {
  it('a second desk in this process is refused while the first is open, and allowed after', async () => {
    const first = await createDesk({ dataDir, secretStore: new MemorySecretStore() });
    await expect(
      createDesk({ dataDir, secretStore: new MemorySecretStore() }),
    ).rejects.toBeInstanceOf(DataFolderInUseError);
    await first.close();
    const second = await createDesk({ dataDir, secretStore: new MemorySecretStore() });
    await second.close();
  });

  it('a damaged lock file is taken again when free, and still refuses a second desk when held', async () => {
    const lock = join(dataDir, 'strategy-desk.lock');
    writeFileSync(lock, 'not a database, written over by something else '.repeat(100));
    const first = await createDesk({ dataDir, secretStore: new MemorySecretStore() });
    expect(await first.profiles.list({})).toEqual([]);
    // Written over while held: the operating system's lock still says who owns the folder.
    writeFileSync(lock, 'garbage again '.repeat(500));
    await expect(
      createDesk({ dataDir, secretStore: new MemorySecretStore() }),
    ).rejects.toBeInstanceOf(DataFolderInUseError);
    await first.close();
    const second = await createDesk({ dataDir, secretStore: new MemorySecretStore() });
    await second.close();
  });

  it('a second host process says the app is running there and exits non-zero; a killed one leaves no lock', async () => {
    await ensureRendererBuilt();
    const first = spawnHost(dataDir);
    hosts.push(first);
    const url = await first.ready;
    const port = new URL(url).port;

    const second = spawnHost(dataDir);
    hosts.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `Strategy desk is already running with the data folder ${dataDir}`,
    );
    expect(second.output()).toContain(`open at http://127.0.0.1:${port}/`);
    // The address is named, never its access key.
    expect(second.output()).not.toContain(new URL(url).hash.slice('#token='.length));

    await first.killHard();
    const third = spawnHost(dataDir);
    hosts.push(third);
    expect(await third.ready).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=/);
  }, 120_000);

  it('a host on a damaged data file refuses to start, in words, instead of failing every call', async () => {
    await ensureRendererBuilt();
    const first = await createDesk({ dataDir, secretStore: new MemorySecretStore() });
    await first.close();
    const path = join(dataDir, 'strategy-desk.sqlite');
    const db = new Database(path);
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const { rootpage } = db
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'profiles'")
      .get() as { rootpage: number };
    db.close();
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.from([0xff, 0xff, 0xff, 0xff]), 0, 4, (rootpage - 1) * pageSize);
    closeSync(fd);

    const host = spawnHost(dataDir);
    hosts.push(host);
    expect(await host.exited).toBe(1);
    expect(host.output()).toContain(`The data file ${path} is damaged`);
    expect(host.output().replaceAll(path, '')).not.toMatch(/SQLITE|malformed/i);
  }, 120_000);
});
