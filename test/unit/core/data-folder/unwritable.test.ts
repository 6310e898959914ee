import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DataFolderError,
  dataFolderFailure,
} from '../../../../electron/core/data-folder/unwritable';

const failing = (code: string) => Object.assign(new Error(`${code}: raw words`), { code });

describe('a data folder that cannot be used, in words', () => {
  it.each([
    ['EROFS', 'read-only'],
    ['EACCES', 'no-permission'],
    ['EPERM', 'no-permission'],
    ['ENOSPC', 'disk-full'],
    ['SQLITE_FULL', 'disk-full'],
    ['ENOTDIR', 'not-a-folder'],
  ])('%s is told as %s, naming the folder and never the code', (code, problem) => {
    const error = dataFolderFailure(failing(code), '/data/desk');
    expect(error).toBeInstanceOf(DataFolderError);
    expect(error).toMatchObject({ problem, dataDir: '/data/desk' });
    expect(error!.message).toContain('/data/desk');
    expect(error!.message).not.toContain(code);
  });

  it('passes on what it cannot tell (a folder that can be written, another failure)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-unwritable-'));
    expect(dataFolderFailure(failing('ENOENT'), join(dir, 'desk'))).toBeNull();
    expect(dataFolderFailure(failing('SQLITE_READONLY'), dir)).toBeNull();
    expect(dataFolderFailure(new Error('no code'), dir)).toBeNull();
    rmSync(dir, { recursive: true, force: true });
  });
});
