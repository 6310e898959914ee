/**
 * `npm run bench` runs every test/bench/*.bench.ts. Each exports a default async
 * function returning its figures (ratios against a baseline measured in the same
 * run). `npm run bench -- --json` prints one JSON object of all figures as the last line.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Figures = Record<string, number | string | boolean>;

const here = dirname(fileURLToPath(import.meta.url));
const json = process.argv.includes('--json');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);

const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !only || f.startsWith(only))
  .sort();

const all: Figures = {};
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as {
    default: () => Promise<Figures>;
  };
  const started = Date.now();
  const figures = await mod.default();
  Object.assign(all, figures);
  for (const [key, value] of Object.entries(figures))
    console.log(`${key.padEnd(32)} ${String(value)}`);
  console.log(`  (${file} took ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
if (json) console.log(JSON.stringify(all));
