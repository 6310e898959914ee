import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { workflowFiles, workflowProblems } from '../../../scripts/check-workflows';

/** The GitHub workflows, against the workflow schema (as `npm run lint` checks them) and in substance. */
const builderRequire = createRequire(require.resolve('app-builder-lib/package.json'));
const yaml = builderRequire('js-yaml') as { load(text: string): unknown };
const files = workflowFiles();
const text = (name: string) =>
  readFileSync(
    files.find((f) => f.endsWith(name))!,
    'utf8',
  );
type Workflow = { on: Record<string, unknown>; jobs: Record<string, Record<string, unknown>> };
const load = (name: string) => yaml.load(text(name)) as Workflow;
const runs = (workflow: Workflow, job: string) =>
  ((workflow.jobs[job]!.steps as { run?: string }[]) ?? []).map((s) => s.run ?? '').join('\n');

describe('the GitHub workflows', () => {
  it('are ci.yml and release.yml, both valid against the workflow schema', () => {
    expect(files.map((f) => f.split(/[\\/]/).at(-1))).toEqual(['ci.yml', 'release.yml']);
    for (const file of files) expect(workflowProblems(readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('is checked for real: a misspelt key and a missing runner are refused', () => {
    expect(
      workflowProblems(text('ci.yml').replace('runs-on: ubuntu-latest', 'runs_on: ubuntu-latest')),
    ).toContain("/jobs/checks: Additional property 'runs_on' is not allowed");
    expect(
      workflowProblems('on: push\njobs:\n  a:\n    steps:\n      - run: true\n').length,
    ).toBeGreaterThan(0);
  });

  it('ci: lint and typecheck, tests on Linux, macOS and Windows, the Electron smoke test on Linux', () => {
    const ci = load('ci.yml');
    expect(runs(ci, 'checks')).toMatch(/npm run lint[\s\S]*npm run typecheck/);
    const matrix = (ci.jobs.test!.strategy as { matrix: { os: string[] } }).matrix.os;
    expect(matrix).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest']);
    expect(runs(ci, 'test')).toMatch(/npm test/);
    expect(ci.jobs.electron!['runs-on']).toBe('ubuntu-latest');
    expect(runs(ci, 'electron')).toMatch(/npm run test:electron/);
  });

  it('release: on a version tag, NSIS, DMG, AppImage and deb attached to a draft release', () => {
    const release = load('release.yml');
    expect(release.on).toEqual({ push: { tags: ['v*.*.*'] } });
    const include = (
      release.jobs.installers!.strategy as { matrix: { include: { targets: string }[] } }
    ).matrix.include.map((i) => i.targets);
    expect(include).toEqual(['--win nsis', '--mac dmg', '--linux AppImage deb']);
    expect(runs(release, 'installers')).toMatch(/npm run package -- \$\{\{ matrix\.targets \}\}/);
    expect(runs(release, 'draft-release')).toMatch(/gh release create .* --draft/s);
  });
});
