import { mkdtempSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveStaticFile } from '../../../electron/host/static-files';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'desk-static-')));
const root = join(dir, 'root');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), 'index');
writeFileSync(join(root, 'assets', 'a.js'), 'a');
writeFileSync(join(dir, 'secret.txt'), 'secret');
symlinkSync(join(dir, 'secret.txt'), join(root, 'link.txt'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveStaticFile', () => {
  it('maps / to index.html and finds assets', async () => {
    expect(await resolveStaticFile(root, '/')).toBe(join(root, 'index.html'));
    expect(await resolveStaticFile(root, '/assets/a.js')).toBe(join(root, 'assets', 'a.js'));
  });

  it('refuses traversal, symlinks out of the root, hidden names and folders', async () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2Fsecret.txt',
      '/..%5Csecret.txt',
      '/link.txt',
      '/.env',
      '/assets',
      '/nope.js',
      '/%00index.html',
      '/%E0%A4%A',
    ]) {
      expect(await resolveStaticFile(root, path), path).toBeNull();
    }
  });
});
