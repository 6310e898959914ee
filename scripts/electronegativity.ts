/**
 * Electronegativity over electron/: fails on any finding. A finding reviewed and accepted is
 * suppressed in place, on the line it is reported for, with the reason after a colon:
 *   void shell.openExternal(target); // eng-disable OPEN_EXTERNAL_JS_CHECK: parsed http(s) URL only
 * An eng-disable comment without a reason fails too. Usage: npx tsx scripts/electronegativity.ts
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const scanned = join(root, 'electron');

/** Report rows after the header; a row that does not start with a check id still counts. */
export function findingsOf(csv: string): string[] {
  const [, ...rows] = csv.split(/\r?\n/);
  return rows.filter((row) => row.trim() !== '');
}

/** eng-disable comments that give no reason ("eng-disable CHECK_NAME: why"). */
export function suppressionsWithoutReason(file: string, text: string): string[] {
  return text
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(
      ({ line }) =>
        /eng-disable/.test(line) && !/eng-disable[ \t]+[\w \t]+:[ \t]*(?!\*\/)\S/.test(line),
    )
    .map(({ number }) => `${file}:${number}: eng-disable without a reason after a colon`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js|cjs|mjs|html)$/.test(name) ? [path] : [];
  });
}

function main(): number {
  const bin = join(root, 'node_modules', '.bin', 'electronegativity');
  if (!existsSync(bin)) {
    console.error('Electronegativity is not installed (npm i -D @doyensec/electronegativity).');
    return 2;
  }
  const electron = JSON.parse(
    readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'),
  ) as { version: string };
  // A fresh folder each run: the tool does not truncate an existing report file.
  const out = mkdtempSync(join(tmpdir(), 'electronegativity-'));
  try {
    const report = join(out, 'report.csv');
    const run = spawnSync(
      bin,
      ['-i', scanned, '-r', '-e', electron.version, '-o', report, '-v', 'false'],
      { cwd: root, encoding: 'utf8', timeout: 300_000 },
    );
    if (!existsSync(report)) {
      console.error(`Electronegativity wrote no report (exit ${run.status}):\n${run.stderr}`);
      return 2;
    }
    const findings = findingsOf(readFileSync(report, 'utf8'));
    const unexplained = sourceFiles(scanned).flatMap((file) =>
      suppressionsWithoutReason(relative(root, file), readFileSync(file, 'utf8')),
    );
    for (const finding of findings) console.error(`finding: ${finding}`);
    for (const line of unexplained) console.error(line);
    if (findings.length > 0 || unexplained.length > 0) {
      console.error(
        `Electronegativity: ${findings.length} finding(s), ${unexplained.length} suppression(s) ` +
          'without a reason. Fix each, or suppress it on its line with ' +
          '"// eng-disable CHECK_NAME: reason".',
      );
      return 1;
    }
    console.log(`Electronegativity (Electron ${electron.version}): no findings in electron/.`);
    return 0;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(main());
}
