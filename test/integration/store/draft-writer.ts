// Child process for the crash test: saves 1,000-row drafts in a loop until it is killed.
// Prints "saved <draftId> <generation>" after each save has returned.
import { writeSync } from 'node:fs';
import { openStore, type DraftRow } from '../../../electron/core/store';

const [path, profileId, strategyId, round] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const DRAFTS = 3;

export function generationRows(round: string, generation: number): DraftRow[] {
  return Array.from({ length: 1000 }, (_, j) => ({
    symbol: `R${round}G${generation}S${j}`,
    weight: `${generation}.${String(j).padStart(6, '0')}`,
    locked: j % 2 === 0,
  }));
}

if (path) {
  const store = openStore(path);
  const drafts = Array.from({ length: DRAFTS }, (_, i) =>
    store.drafts.create({
      profileId,
      strategyId,
      name: `crash ${round}/${i}`,
      rows: generationRows(round, i - DRAFTS),
    }),
  );
  for (const d of drafts) writeSync(1, `created ${d.id}\n`);
  for (let generation = 0; ; generation++) {
    const draft = drafts[generation % DRAFTS]!;
    store.drafts.saveRows(draft.id, generationRows(round, generation));
    writeSync(1, `saved ${draft.id} ${generation}\n`);
  }
}
