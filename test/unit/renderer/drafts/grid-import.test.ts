import { describe, expect, it } from 'vitest';
import { DeskError } from '../../../../shared/errors';
import type { DraftRow } from '../../../../shared/views';
import { DraftEditing } from '../../../../renderer/src/drafts/draft-editing.svelte';
import { DraftModel } from '../../../../renderer/src/drafts/draft-model';
import {
  GridImport,
  type GridNoun,
  type ImportReader,
} from '../../../../renderer/src/drafts/grid-import.svelte';

const row = (symbol: string, weight: string, locked = false): DraftRow => ({
  symbol,
  weight,
  locked,
});

/** The grid of an editor with no target (a model's, or a draft of a strategy with none). */
function gridOf(rows: DraftRow[], noun: GridNoun, read?: ImportReader) {
  let edits = 0;
  const editing = new DraftEditing(new DraftModel(rows, [], [], {}), () => edits++);
  return { editing, tools: new GridImport(editing, noun, read), edits: () => edits };
}

const file = (name: string, text: string, size = text.length) => ({
  name,
  size,
  text: async () => text,
});

describe('the grid import', () => {
  it.each(['draft', 'model'] as const)('a rescale names the %s in its notice', (noun) => {
    const { editing, tools } = gridOf([row('AAPL', '10', true), row('MSFT', '10')], noun);
    tools.rescale('50');
    expect(editing.model.rows.map((r) => r.weight)).toEqual(['10', '40']);
    expect(tools.notice).toEqual({
      text:
        `Rescaled: the ${noun} now totals 50 %; the locked rows keep their 10 % and the ` +
        'unlocked rows share the rest.',
      lines: [],
      error: false,
    });
    tools.dismiss();
    expect(tools.notice).toBeNull();
  });

  it("a draft's file is read by the paste reader; an unreadable paste adds nothing", async () => {
    const { editing, tools, edits } = gridOf([], 'draft');
    await tools.importFile(file('rows.csv', 'symbol,weight\nAAPL,10\nMSFT,5\n'));
    expect(editing.model.rows.map((r) => [r.symbol, r.weight])).toEqual([
      ['AAPL', '10'],
      ['MSFT', '5'],
    ]);
    expect(tools.notice).toMatchObject({ lines: [], error: false });
    expect(tools.notice!.text).toMatch(/^Imported rows\.csv: Read 2 rows/);
    expect(edits()).toBe(1);

    tools.merge('\n\n', 'Pasted');
    expect(tools.notice!.error).toBe(true);
    expect(tools.notice!.text).toMatch(/^Pasted: /);
    expect(editing.model.rows).toHaveLength(2);
  });

  it("a model's file is read by its reader, whose problems replace the rows' own", async () => {
    const texts: string[] = [];
    const { editing, tools } = gridOf([], 'model', async (text) => {
      texts.push(text);
      return {
        rows: [{ symbol: 'AAPL', weight: '10', locked: false, line: 1, problem: null }],
        problems: ['Line 2: no weight.'],
      };
    });
    await tools.importFile(file('model.csv', 'AAPL,10\nMSFT\n'));
    expect(texts).toEqual(['AAPL,10\nMSFT\n']);
    expect(editing.model.rows.map((r) => r.symbol)).toEqual(['AAPL']);
    expect(tools.notice).toMatchObject({ lines: ['Line 2: no weight.'], error: true });
    expect(tools.notice!.text).toMatch(/^Imported model\.csv: Read 1 row/);
  });

  it("a model's reader that fails says why and adds nothing", async () => {
    const { editing, tools } = gridOf([], 'model', () =>
      Promise.reject(new DeskError({ kind: 'internal', message: 'The desk could not read it.' })),
    );
    await tools.importFile(file('model.csv', 'AAPL,10\n'));
    expect(tools.notice).toEqual({
      text: 'Imported model.csv: The desk could not read it.',
      lines: [],
      error: true,
    });
    expect(editing.model.rows).toEqual([]);
  });

  it('a file too large for the reader is not read at all', async () => {
    let read = false;
    const { tools } = gridOf([], 'model', async () => {
      read = true;
      return { rows: [], problems: [] };
    });
    await tools.importFile({
      name: 'huge.csv',
      size: 4_000_001,
      text: async () => {
        read = true;
        return '';
      },
    });
    expect(read).toBe(false);
    expect(tools.notice).toMatchObject({ error: true, lines: [] });
    expect(tools.notice!.text).toMatch(/^Imported huge\.csv: the file has .* Nothing was added\.$/);
  });
});
