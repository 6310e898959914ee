import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The README and docs/ as someone with only this repository reads them. */
const root = join(__dirname, '..', '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const docs = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => join('docs', name));
const documents = ['README.md', 'electron/sandbox/README.md', ...docs];

const fences = (text: string) => [...text.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)];

describe('README', () => {
  it('starts with exactly the two commands, after at most a short list of needs', () => {
    const [first] = fences(readme);
    const commands = first![1]!
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
    const before = readme.slice(0, first!.index).trim().split('\n');
    expect(before[0]).toBe('# Strategy desk');
    expect(before.filter((line) => line.startsWith('#'))).toEqual(['# Strategy desk']);
    expect(before.length).toBeLessThanOrEqual(12);
    for (const need of ['Node.js', 'C++ toolchain', 'libsecret', 'Chromium']) {
      expect(before.join('\n')).toContain(need);
    }
    for (const platform of ['Debian/Ubuntu', 'macOS', 'Windows']) {
      expect(before.join('\n')).toContain(platform);
    }
  });

  it('says what npm start does: the first screen offers the sandbox, --data-dir, its address printed', () => {
    const [first] = fences(readme);
    const after = readme.slice(first!.index! + first![0].length);
    // Right after the commands: the app does not start on the sandbox by itself.
    expect(first![1]).not.toMatch(/by default/);
    expect(after.slice(0, 400)).toContain('does not start on the sandbox by itself');
    expect(after.slice(0, 400)).toContain('`npm start -- --data-dir D`');
    expect(readme).toMatch(/Once the sandbox runs, `npm start` prints its\s+address/);
  });

  it('names every folder of the tree in its layout', () => {
    const layout = readme.slice(readme.indexOf('## Layout'));
    const block = fences(layout)[0]![1]!;
    const named = new Set(
      block.split('\n').flatMap((line) => [...line.matchAll(/([\w.-]+)\//g)].map((m) => m[1]!)),
    );
    const ignored = new Set([
      'node_modules',
      'dist',
      'out',
      'coverage',
      'screenshots',
      'test-results',
    ]);
    const folders = (dir: string) =>
      readdirSync(join(root, dir)).filter(
        (name) =>
          statSync(join(root, dir, name)).isDirectory() &&
          !ignored.has(name) &&
          (dir !== '.' || !name.startsWith('.') || name === '.github'),
      );
    for (const dir of ['.', 'electron', 'test']) {
      for (const folder of folders(dir)) expect([dir, named.has(folder)]).toEqual([dir, true]);
    }
  });
});

/** References that would point outside the repository (spelt in parts, so this file names none). */
const OUTSIDE = new RegExp(
  ['\\.\\./shared', '/work/', ['DESIGN', 'section'].join(' '), '[Ii]ssue \\d'].join('|'),
  'g',
);

describe('README and docs/', () => {
  it('point at no path outside the repository and at no design file it does not hold', () => {
    for (const doc of documents) {
      const text = readFileSync(join(root, doc), 'utf8');
      expect([doc, text.match(OUTSIDE)]).toEqual([doc, null]);
    }
  });

  it('link only to files that exist', () => {
    for (const doc of documents) {
      const text = readFileSync(join(root, doc), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const path = resolve(dirname(join(root, doc)), target!);
        expect([doc, target, existsSync(path)]).toEqual([doc, target, true]);
        expect(path.startsWith(root)).toBe(true);
      }
    }
  });
});
