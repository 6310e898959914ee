import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { holderStillRuns } from '../../../../electron/core/data-folder/holder';
import type { FolderHolder } from '../../../../electron/core/store';

const holder = (change: Partial<FolderHolder>): FolderHolder => ({
  holder: 'h',
  pid: process.pid,
  host: hostname(),
  app: 'the browser host',
  startedAt: '2026-01-01T00:00:00.000Z',
  address: null,
  lockFile: '1:100',
  ...change,
});
const me = { lockFile: '1:200', host: hostname() };

describe('whether the process the database names still holds the data folder', () => {
  it('does while its pid runs and its lock file is another (the one it held was deleted)', () => {
    expect(holderStillRuns(holder({}), me)).toBe(true);
  });

  it('does not once its pid ended', () => {
    const ended = spawnSync(process.execPath, ['-e', '0']).pid!;
    expect(holderStillRuns(holder({ pid: ended }), me)).toBe(false);
  });

  it('does not when it held the lock file this process holds now (the OS let it go)', () => {
    expect(holderStillRuns(holder({ lockFile: me.lockFile }), me)).toBe(false);
  });

  it('does not when it ran on another host (only the lock file can tell there)', () => {
    expect(holderStillRuns(holder({ host: `${hostname()}-elsewhere` }), me)).toBe(false);
  });
});
