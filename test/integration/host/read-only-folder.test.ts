import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDesk } from '../../../electron/core/desk';
import { MemorySecretStore } from '../../../electron/core/secrets';
import { PROJECT_ROOT, ensureRendererBuilt } from '../../../electron/host/build-renderer';

/**
 * A read-only disk for real. chmod does not stop root (CI runs as root), so the data folder is
 * put on a read-only mount instead, which refuses every write whoever asks (EROFS). The mount is
 * made in a mount namespace of the host process alone (`unshare --user --map-root-user
 * --mount`): it needs no privilege where user namespaces are allowed, is gone when the process
 * ends, and leaves nothing mounted if the test dies. Where no such namespace can be made (a
 * container that forbids them), the tests are skipped with that reason, under CI=true too: the
 * machine cannot make the folder read-only, which says nothing of the app.
 */
function readOnlyMountProblem(): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'desk-ro-probe-'));
  try {
    const probe = spawnSync(
      'unshare',
      [
        '--user',
        '--map-root-user',
        '--mount',
        'sh',
        '-c',
        'mount -t tmpfs -o ro tmpfs "$1" && ! touch "$1/x" 2>/dev/null',
        'sh',
        dir,
      ],
      { encoding: 'utf8' },
    );
    if (probe.error) return `unshare could not run (${probe.error.message})`;
    return probe.status === 0
      ? null
      : `a read-only mount could not be made: ${probe.stderr.trim() || `exit ${probe.status}`}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const problem = readOnlyMountProblem();
if (problem) console.warn(`skipping the read-only data folder tests: ${problem}`);
const itMounts = problem ? it.skip : it;

/**
 * `npm run serve` on `dataDir`, in a namespace of its own where `mount` (a shell command, given
 * `disk` as $1) made the disk read-only.
 */
async function hostOnReadOnly(
  mount: string,
  disk: string,
  dataDir: string,
): Promise<{ code: number | null; output: string }> {
  await ensureRendererBuilt();
  const child = spawn(
    'unshare',
    [
      '--user',
      '--map-root-user',
      '--mount',
      'sh',
      '-c',
      `${mount} && exec npx tsx electron/host/cli.ts --port 0 --data-dir "$2"`,
      'sh',
      disk,
      dataDir,
    ],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'disabled:' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

describe('a data folder on a read-only disk', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'desk-ro-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const saysReadOnly = (output: string, dataDir: string) => {
    expect(output).toContain(
      `Strategy desk cannot write to its data folder ${dataDir}: the disk or the folder is read-only`,
    );
    expect(output).not.toMatch(/EROFS|SQLITE|read-only file system|could not start/i);
  };

  itMounts(
    'an existing data folder, its disk remounted read-only: the host refuses in words',
    async () => {
      const dataDir = join(root, 'desk');
      const desk = await createDesk({ dataDir, secretStore: new MemorySecretStore() });
      await desk.close();
      const { code, output } = await hostOnReadOnly(
        'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1"',
        dataDir,
        dataDir,
      );
      expect(code).toBe(1);
      saysReadOnly(output, dataDir);
    },
    120_000,
  );

  itMounts(
    'a data folder to be made on a read-only disk: the host refuses in words',
    async () => {
      const disk = join(root, 'disk');
      const dataDir = join(disk, 'desk');
      mkdirSync(disk);
      const { code, output } = await hostOnReadOnly(
        'mount -t tmpfs -o ro,mode=0700 tmpfs "$1"',
        disk,
        dataDir,
      );
      expect(code).toBe(1);
      saysReadOnly(output, dataDir);
    },
    120_000,
  );
});
