import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDraftAnalyzer } from '../../../../shared/draft/analyzer';
import { diffDraft } from '../../../../shared/draft/diff';
import { validateDraft } from '../../../../shared/draft/validate';
import type { DraftRow } from '../../../../shared/views';
import { Autosave, type SaveState } from '../../../../renderer/src/drafts/autosave';
import { DraftModel } from '../../../../renderer/src/drafts/draft-model';
import { changesNothing, classifyExecuteError } from '../../../../renderer/src/drafts/execute-plan';
import {
  DeskError,
  type DeskErrorDetailsByKind,
  type DeskErrorKind,
  type DeskErrorWire,
} from '../../../../shared/views';

const target = [
  { symbol: 'AAPL', weight: '15' },
  { symbol: 'MSFT', weight: '10' },
];
const holdings = [
  { symbol: 'AAPL', quantity: '3' },
  { symbol: 'TSLA', quantity: '2' },
];
const row = (symbol: string, weight: string): DraftRow => ({ symbol, weight, locked: false });

/** The model's live answer must equal the one-shot validator and diff on the same rows. */
function expectMatchesOneShot(model: DraftModel) {
  const validation = validateDraft(model.rows, { previousTarget: target });
  const diff = diffDraft(validation, target, holdings);
  const a = model.analysis;
  expect([...a.validated]).toEqual(validation.rows);
  expect([...a.diffRows, ...a.leftOut]).toEqual(diff.rows);
  expect({ total: a.total, cash: a.cash, valid: a.valid, errors: a.errors }).toEqual({
    total: validation.total,
    cash: validation.cash,
    valid: validation.valid,
    errors: validation.errors,
  });
  const errorRows = validation.rows.filter((r) => r.errors.length > 0).map((r) => r.index);
  expect([...model.errorRows].sort((x, y) => x - y)).toEqual(errorRows);
}

describe('DraftModel', () => {
  it('merges one focus of a cell into one undo step, and Escape takes it back', () => {
    const model = new DraftModel([row('AAPL', '15'), row('MSFT', '10')], target, holdings);
    model.setCell(0, 'weight', '1', 1);
    model.setCell(0, 'weight', '12', 1);
    model.setCell(1, 'weight', '9', 2);
    expect(model.rows.map((r) => r.weight)).toEqual(['12', '9']);
    model.undo();
    expect(model.rows.map((r) => r.weight)).toEqual(['12', '10']);
    model.undo();
    expect(model.rows.map((r) => r.weight)).toEqual(['15', '10']);
    model.redo();
    expect(model.rows.map((r) => r.weight)).toEqual(['12', '10']);
    model.setCell(1, 'symbol', 'MSF', 3);
    model.revertCell(1, 'symbol', 3);
    expect(model.rows[1]!.symbol).toBe('MSFT');
    expect(model.canRedo).toBe(false);
    expectMatchesOneShot(model);
  });

  it('pastes by symbol: existing rows get the weight, new ones are added; one undo step', () => {
    const model = new DraftModel([row('AAPL', '15')], target, holdings);
    const keys = model.keys.slice();
    const { updated, added } = model.mergeRows([
      { symbol: 'aapl', weight: '5' },
      { symbol: 'GOOGL', weight: '3' },
    ]);
    expect({ updated, added }).toEqual({ updated: 1, added: 1 });
    expect(model.rows).toEqual([row('AAPL', '5'), row('GOOGL', '3')]);
    expect(model.keys[0]).toBe(keys[0]);
    model.undo();
    expect(model.rows).toEqual([row('AAPL', '15')]);
    expectMatchesOneShot(model);
  });

  it('a paste into a blank focused row fills it and the rows after, leaving no blank behind', () => {
    const model = new DraftModel(
      [row('AAPL', '15'), row('', ''), row('MSFT', '10')],
      target,
      holdings,
    );
    const keys = model.keys.slice();
    const { updated, added } = model.mergeRows(
      [
        { symbol: 'GOOGL', weight: '3' },
        { symbol: 'aapl', weight: '5' },
        { symbol: 'TSLA', weight: '2' },
      ],
      1,
    );
    expect({ updated, added }).toEqual({ updated: 1, added: 2 });
    expect(model.rows).toEqual([
      row('AAPL', '5'),
      row('GOOGL', '3'),
      row('TSLA', '2'),
      row('MSFT', '10'),
    ]);
    // The blank row became GOOGL (same key); TSLA is new; AAPL and MSFT keep theirs.
    expect([model.keys[0], model.keys[1], model.keys[3]]).toEqual(keys);
    model.undo();
    expect(model.rows).toEqual([row('AAPL', '15'), row('', ''), row('MSFT', '10')]);
    expectMatchesOneShot(model);
  });

  it('a paste loses no row: rows without a symbol and a symbol pasted twice stay rows of their own', () => {
    const model = new DraftModel([row('AAPL', '15')], target, holdings);
    const { updated, added } = model.mergeRows([
      { symbol: '', weight: '5' },
      { symbol: 'aapl', weight: '20,5' },
      { symbol: '', weight: '6' },
      { symbol: 'AAPL', weight: '7' },
      { symbol: 'TLT', weight: '1' },
      { symbol: 'TLT', weight: '2' },
    ]);
    expect({ updated, added }).toEqual({ updated: 1, added: 5 });
    expect(model.rows).toEqual([
      row('AAPL', '20,5'),
      row('', '5'),
      row('', '6'),
      row('AAPL', '7'),
      row('TLT', '1'),
      row('TLT', '2'),
    ]);
    // Each is marked: the bad weight, the empty symbols, the duplicates.
    expect([...model.errorRows].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expectMatchesOneShot(model);
  });

  it('a paste from a row that is not blank adds new symbols at the end', () => {
    const model = new DraftModel([row('AAPL', '15'), row('MSFT', '10')], target, holdings);
    model.mergeRows([{ symbol: 'GOOGL', weight: '3' }], 0);
    expect(model.rows).toEqual([row('AAPL', '15'), row('MSFT', '10'), row('GOOGL', '3')]);
  });

  it('a rescale is one undo step, and one that changes nothing records none', () => {
    const model = new DraftModel([row('AAPL', '15'), row('MSFT', '10')], target, holdings);
    const keys = model.keys.slice();
    model.setCell(0, 'weight', '20', 1);
    expect(model.setWeights(['60', '30']).structural).toBe(true);
    expect(model.keys).toEqual(keys);
    // Rescaling again to the same total gives the same weights: nothing to undo.
    expect(model.setWeights(['60', '30'])).toEqual({ structural: false, rows: [] });
    model.undo();
    expect(model.rows.map((r) => r.weight)).toEqual(['20', '10']);
    model.undo();
    expect(model.rows.map((r) => r.weight)).toEqual(['15', '10']);
    expect(model.canUndo).toBe(false);
    expectMatchesOneShot(model);
  });

  it('a lock change is reported (the row re-renders and is saved) without touching weights', () => {
    const model = new DraftModel([row('AAPL', '15')], target, holdings);
    const revision = model.revision;
    expect(model.setLocked(0, true).rows).toEqual([0]);
    expect(model.revision).toBeGreaterThan(revision);
    expect(model.lockedIndexes()).toEqual(new Set([0]));
  });

  it('any sequence of edits answers exactly like validateDraft and diffDraft', () => {
    const symbol = fc.constantFrom('AAPL', 'MSFT', 'TSLA', 'GOOGL', '', 'bad sym');
    const weight = fc.constantFrom('', '0', '5', '15', '98.5', '-1', 'abc', '0.000001', '60');
    const edit = fc.oneof(
      fc.record({
        kind: fc.constant('cell' as const),
        i: fc.nat(6),
        field: fc.constantFrom('symbol' as const, 'weight' as const),
        symbol,
        weight,
      }),
      fc.record({ kind: fc.constant('insert' as const), i: fc.nat(6), symbol, weight }),
      fc.record({ kind: fc.constant('remove' as const), i: fc.nat(6) }),
      fc.constant({ kind: 'undo' as const }),
      fc.constant({ kind: 'redo' as const }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ symbol, weight }), { maxLength: 6 }),
        fc.array(edit, { maxLength: 25 }),
        (start, edits) => {
          const model = new DraftModel(
            start.map((r) => ({ ...r, locked: false })),
            target,
            holdings,
          );
          let group = 0;
          for (const e of edits) {
            const n = model.rows.length;
            if (e.kind === 'cell' && n > 0)
              model.setCell(
                e.i % n,
                e.field,
                e.field === 'symbol' ? e.symbol : e.weight,
                group++ % 3,
              );
            else if (e.kind === 'insert') model.insertRow(e.i % (n + 1), row(e.symbol, e.weight));
            else if (e.kind === 'remove' && n > 0) model.removeRows([e.i % n]);
            else if (e.kind === 'undo') model.undo();
            else if (e.kind === 'redo') model.redo();
            expectMatchesOneShot(model);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the analyzer update path equals analyze on the same rows', () => {
    const a = createDraftAnalyzer(target, holdings);
    const b = createDraftAnalyzer(target, holdings);
    const rows = [row('AAPL', '15'), row('AAPL', '3'), row('TSLA', '1')];
    a.update(rows, null);
    rows[1] = row('MSFT', '3');
    const live = a.update(rows, [1]);
    const once = b.analyze(rows);
    expect([...live.validated]).toEqual(once.validation.rows);
    expect([...live.diffRows, ...live.leftOut]).toEqual(once.diff.rows);
    expect(live.refreshed).toEqual(expect.arrayContaining([0, 1]));
  });
});

describe('Autosave', () => {
  it('saves the latest rows once after a burst, and flush waits for it', async () => {
    const saved: string[][] = [];
    const states: SaveState['kind'][] = [];
    const autosave = new Autosave<string[]>({
      save: async (rows) => void saved.push(rows),
      onState: (s) => states.push(s.kind),
      describe: String,
      delayMs: 20,
    });
    autosave.schedule(() => ['a']);
    autosave.schedule(() => ['a', 'b']);
    await autosave.flush();
    expect(saved).toEqual([['a', 'b']]);
    expect(states.at(-1)).toBe('saved');
    expect(autosave.dirty).toBe(false);
  });

  it('keeps the edit after a failed save and says why', async () => {
    let fail = true;
    const states: SaveState[] = [];
    const autosave = new Autosave<string>({
      save: async () => {
        if (fail) throw new Error('disk full');
      },
      onState: (s) => states.push(s),
      describe: (e) => (e as Error).message,
      delayMs: 5,
    });
    autosave.schedule(() => 'rows');
    await expect(autosave.flush()).rejects.toThrow('disk full');
    expect(states.at(-1)).toEqual({ kind: 'error', message: 'disk full' });
    expect(autosave.dirty).toBe(true);
    fail = false;
    await autosave.flush();
    expect(states.at(-1)).toEqual({ kind: 'saved' });
  });
});

describe('the execute plan and errors', () => {
  it('a held symbol left out or at 0 is a sale, and only an untouched target changes nothing', () => {
    const model = new DraftModel([row('AAPL', '10'), row('GOOGL', '5')], target, holdings);
    const leftOut = model.analysis.leftOut.map((r) => [r.symbol, r.action, r.sellsAll]);
    expect(leftOut).toContainEqual(['TSLA', 'IGNORE', true]);
    expect(changesNothing(model.analysis)).toBe(false);
    const same = new DraftModel(
      target.map((p) => row(p.symbol, p.weight)),
      target,
      [],
    );
    expect(changesNothing(same.analysis)).toBe(true);
    // Unknown target: no action is guessed, the sale of a held symbol at 0 still shows.
    const unknown = new DraftModel([row('TSLA', '0'), row('AAPL', '3')], null, holdings);
    expect(unknown.analysis.diffRows.every((r) => !r.oldKnown)).toBe(true);
    expect(unknown.analysis.diffRows.map((r) => [r.symbol, r.action, r.sellsAll])).toEqual([
      ['TSLA', 'uncertain', true],
      ['AAPL', 'uncertain', false],
    ]);
    // Holdings that do not fit the known target: its weights are the last known ones, no action
    // is predicted, and an untouched target is not "nothing to change".
    const stale = new DraftModel(
      target.map((p) => row(p.symbol, p.weight)),
      target,
      [],
      { stale: true },
    );
    expect(stale.analysis.doubt).toBe('stale');
    expect(stale.analysis.diffRows.every((r) => r.action === 'uncertain' && r.oldKnown)).toBe(true);
    expect(stale.analysis.diffRows.some((r) => r.effect === 'unchanged')).toBe(false);
    expect(changesNothing(stale.analysis)).toBe(false);
  });

  it('classifies each failure by where it belongs', () => {
    // Details of the kind's own shape: a wrong shape is refused by the host (errors.test.ts).
    const e = <K extends DeskErrorKind>(kind: K, details?: DeskErrorDetailsByKind[K]) =>
      DeskError.fromWire({ kind, message: 'x', ...(details && { details }) } as DeskErrorWire);
    expect(
      classifyExecuteError(e('unknown-symbols', { ambiguous: false, unknownSymbols: ['ZZZ'] })),
    ).toMatchObject({
      kind: 'unknown-symbols',
      symbols: ['ZZZ'],
    });
    expect(classifyExecuteError(e('unexecuted-version'))).toMatchObject({ versionId: null });
    expect(classifyExecuteError(e('network', { ambiguous: true })).kind).toBe('ambiguous');
    expect(classifyExecuteError(e('conflict', { ambiguous: false, versionId: 'v' }))).toMatchObject(
      {
        versionId: 'v',
      },
    );
  });
});
