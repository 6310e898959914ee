import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secureDataFolder } from '../../../../electron/core/files/permissions';

const modeOf = (path: string) => statSync(path).mode & 0o7777;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strategy-desk-modes-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('secureDataFolder', () => {
  it('creates a missing folder 0700 whatever the umask', () => {
    const umask = process.umask(0);
    secureDataFolder(join(dir, 'new', 'data'));
    process.umask(umask);
    expect(modeOf(join(dir, 'new', 'data'))).toBe(0o700);
  });

  it('leaves a shared folder (sticky bit, like /tmp) as it is, and still narrows the files of the app', () => {
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    writeFileSync(join(shared, 'strategy-desk.sqlite'), '', { mode: 0o644 });
    mkdirSync(join(shared, 'logs'), { mode: 0o755 });
    writeFileSync(join(shared, 'logs', 'strategy-desk.1.log'), '', { mode: 0o644 });
    writeFileSync(join(shared, 'someone-elses.txt'), '', { mode: 0o644 });
    chmodSync(join(shared, 'someone-elses.txt'), 0o644);
    secureDataFolder(shared);
    expect({
      folder: modeOf(shared),
      db: modeOf(join(shared, 'strategy-desk.sqlite')),
      logs: modeOf(join(shared, 'logs')),
      log: modeOf(join(shared, 'logs', 'strategy-desk.1.log')),
      other: modeOf(join(shared, 'someone-elses.txt')),
    }).toEqual({ folder: 0o1777, db: 0o600, logs: 0o700, log: 0o600, other: 0o644 });
  });

  it('never widens: a read-only file stays read-only', () => {
    writeFileSync(join(dir, 'strategy-desk.sqlite'), '');
    chmodSync(join(dir, 'strategy-desk.sqlite'), 0o444);
    secureDataFolder(dir);
    expect(modeOf(join(dir, 'strategy-desk.sqlite'))).toBe(0o400);
  });
});
