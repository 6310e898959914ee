import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unusedExportPath } from '../../../../electron/core/reports/unused-path';

describe('where an export goes without a save dialog', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strategy-desk-exports-'));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('takes the name when it is free, and numbers it when an earlier export has it', () => {
    expect(unusedExportPath(dir, 'orders.csv')).toBe(join(dir, 'orders.csv'));
    writeFileSync(join(dir, 'orders.csv'), 'a\n');
    expect(unusedExportPath(dir, 'orders.csv')).toBe(join(dir, 'orders (2).csv'));
    writeFileSync(join(dir, 'orders (2).csv'), 'b\n');
    expect(unusedExportPath(dir, 'orders.csv')).toBe(join(dir, 'orders (3).csv'));
    writeFileSync(join(dir, 'activity'), 'c\n');
    expect(unusedExportPath(dir, 'activity')).toBe(join(dir, 'activity (2)'));
  });
});
