import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../electron/core/store';
import { seedStrategy, tempFolder } from '../../support/store-fixtures';
import { generationRows } from './draft-writer';

const writer = fileURLToPath(new URL('./draft-writer.ts', import.meta.url));

/** Runs the writer until it has announced `saves` saves (plus a little), then SIGKILLs it. */
function runAndKill(args: string[], saves: number) {
  return new Promise<{ created: string[]; saved: Map<string, number> }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const created: string[] = [];
    const saved = new Map<string, number>();
    let buffer = '';
    let stderr = '';
    let count = 0;
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        const [kind, id, generation] = line.split(' ');
        if (kind === 'created') created.push(id!);
        if (kind === 'saved') {
          saved.set(id!, Number(generation));
          // Kill at a varying moment after the n-th save: usually in the middle of the next one.
          if (++count === saves) setTimeout(() => child.kill('SIGKILL'), Math.random() * 20);
        }
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ created, saved });
      else reject(new Error(`writer exited with ${code}: ${stderr}`));
    });
  });
}

describe('a crash in the middle of draft saves', () => {
  const folder = tempFolder();
  afterAll(() => folder.cleanup());

  it('leaves every returned save intact and no draft half saved', async () => {
    const path = folder.file();
    const setup = openStore(path);
    const { profileId, strategyId } = seedStrategy(setup);
    setup.close();

    for (let round = 0; round < 3; round++) {
      const { created, saved } = await runAndKill(
        [path, profileId, strategyId, String(round)],
        12 + round * 5,
      );
      expect(created).toHaveLength(3);
      expect(saved.size).toBe(3);

      const check = new Database(path, { readonly: true });
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      check.close();

      const store = openStore(path);
      created.forEach((draftId, index) => {
        const draft = store.drafts.get(draftId)!;
        expect(draft.rowCount).toBe(1000);
        // The stored rows are exactly one whole generation of this draft...
        const generation = Number(/G(-?\d+)S/.exec(draft.rows[0]!.symbol)![1]);
        expect(draft.rows).toEqual(generationRows(String(round), generation));
        // ...the last one announced, or a later one that committed before the kill.
        expect(generation).toBeGreaterThanOrEqual(saved.get(draftId)!);
        expect(((generation % 3) + 3) % 3).toBe(index);
      });
      store.close();
    }
  });
});
