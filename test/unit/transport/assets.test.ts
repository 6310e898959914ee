import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerAssetRequest,
  contentTypeFor,
  resolveAssetPath,
} from '../../../electron/transport/assets';
import { CONTENT_SECURITY_POLICY } from '../../../electron/transport/content-policy';

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'desk-assets-'));
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>desk</title>');
  writeFileSync(join(root, 'assets', 'index.js'), 'console.log(1)');
  writeFileSync(join(base, 'secret.txt'), 'outside the renderer');
  symlinkSync(join(base, 'secret.txt'), join(root, 'assets', 'link.txt'));
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('the app:// protocol', () => {
  it('maps our origin to files under the renderer folder', () => {
    expect(resolveAssetPath(root, 'app://desk/')).toEqual({
      ok: true,
      path: join(root, 'index.html'),
    });
    expect(resolveAssetPath(root, 'app://desk/assets/index.js?v=1#x')).toEqual({
      ok: true,
      path: join(root, 'assets', 'index.js'),
    });
  });

  it.each([
    ['app://desk/..%2fsecret.txt', 403],
    ['app://desk/assets%5c..%5c..%5csecret.txt', 400],
    ['app://desk/index.html%00.js', 400],
    ['app://desk/%E0%A4%A', 400],
    ['app://other/index.html', 403],
    ['file:///etc/passwd', 403],
    ['not a url', 400],
  ])('refuses %s', (url, status) => {
    expect(resolveAssetPath(root, url)).toEqual({ ok: false, status });
  });

  it.each(['app://desk/../../secret.txt', 'app://desk/assets/%2E%2E/%2e%2e/secret.txt'])(
    'keeps %s inside the root (the URL parser removes dot segments, as Chromium does)',
    (url) => {
      expect(resolveAssetPath(root, url)).toEqual({ ok: true, path: join(root, 'secret.txt') });
    },
  );

  it('answers with the file, its type and the strict CSP', async () => {
    const answer = await answerAssetRequest(root, 'GET', 'app://desk/');
    expect(answer.status).toBe(200);
    expect(String(answer.body)).toContain('<title>desk</title>');
    expect(answer.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(answer.headers['X-Content-Type-Options']).toBe('nosniff');
  });

  it('refuses a symlink that leads out of the renderer folder, missing files and writes', async () => {
    expect((await answerAssetRequest(root, 'GET', 'app://desk/assets/link.txt')).status).toBe(404);
    expect((await answerAssetRequest(root, 'GET', 'app://desk/secret.txt')).status).toBe(404);
    expect((await answerAssetRequest(root, 'GET', 'app://desk/assets')).status).toBe(404);
    expect((await answerAssetRequest(root, 'POST', 'app://desk/')).status).toBe(405);
    const refused = await answerAssetRequest(root, 'GET', 'app://desk/..%2fsecret.txt');
    expect(refused.status).toBe(403);
    expect(String(refused.body)).not.toContain('outside the renderer');
  });

  it('names content types by extension, never guessing executable content', () => {
    expect(contentTypeFor('a/b.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('a/b.CSS')).toBe('text/css; charset=utf-8');
    expect(contentTypeFor('a/b.unknown')).toBe('application/octet-stream');
  });
});
