import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { walSync } from '../../../../electron/core/store/wal-sync';

/** The WAL's fsync off the event loop (store/wal-sync.ts), shared by the commits waiting together. */
describe('walSync', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function walFile() {
    const dir = mkdtempSync(join(tmpdir(), 'strategy-desk-wal-'));
    dirs.push(dir);
    const path = join(dir, 'data.sqlite-wal');
    writeFileSync(path, 'frames');
    // The FileHandle class is not exported: its prototype, from a handle.
    const probe = await open(path, 'r');
    const proto = Object.getPrototypeOf(probe) as { datasync(): Promise<void> };
    await probe.close();
    return { path, datasync: vi.spyOn(proto, 'datasync') };
  }

  it('makes every caller wait for an fsync begun after its call; callers together share one', async () => {
    const { path, datasync } = await walFile();
    const wal = walSync(path);
    const first = wal.flushed();
    // These arrive while the first fsync is under way: one more fsync covers all of them.
    const later = Array.from({ length: 5 }, () => wal.flushed());
    await Promise.all([first, ...later]);
    expect(datasync).toHaveBeenCalledTimes(2);
    await wal.flushed();
    expect(datasync).toHaveBeenCalledTimes(3);
    await wal.close();
  });

  it('reports a failed fsync to the callers that waited for it', async () => {
    const { path, datasync } = await walFile();
    datasync.mockRejectedValueOnce(new Error('EIO'));
    const wal = walSync(path);
    await expect(wal.flushed()).rejects.toThrow('EIO');
    await expect(wal.flushed()).resolves.toBeUndefined();
    await wal.close();
  });
});
