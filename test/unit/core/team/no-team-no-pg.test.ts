import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * Without a team nothing changes, and nothing of PostgreSQL is loaded: the desk, the one
 * execution flow and the team's gate start without `pg`, which is loaded only when a profile of
 * a team first connects (team/connection.ts).
 */
describe('a desk without a team', () => {
  it('loads the desk and its execution flow without loading pg', () => {
    const script = `
      const { createRequire } = require('node:module');
      require('./electron/core/desk');
      require('./electron/core/execution/execute');
      require('./electron/core/team/gate');
      const loaded = Object.keys(require.cache).filter((p) => /[\\\\/]node_modules[\\\\/]pg[\\\\/]/.test(p));
      // Sanity: pg is findable, so its absence above means it was not loaded.
      createRequire(process.cwd() + '/package.json').resolve('pg');
      process.stdout.write(JSON.stringify(loaded));
    `;
    const run = spawnSync('node_modules/.bin/tsx', ['-e', script], {
      cwd: process.cwd(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([]);
  }, 70_000);
});
