import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderEdges, importCycles, importGraph } from '../../support/import-graph';

/**
 * No import cycle in the app's source (docs/architecture.md, "No import cycles"): two modules
 * that import each other, however far round, can be neither understood nor moved apart. Type-only
 * imports count too. The same holds between folders: two folders importing each other, through
 * whichever files, are one module in two places.
 */
const root = join(__dirname, '..', '..', '..');
const FOLDERS = ['electron', 'shared', 'renderer/src'];

/** A cycle as the failure names it: its files in import order, back to the first. */
const said = (cycles: string[][]) => cycles.map((c) => c.join(' → '));

describe('import cycles', () => {
  const graph = importGraph(root, FOLDERS);

  it('reads the whole source: every relative import names a file', () => {
    expect(graph.edges.size).toBeGreaterThan(200);
    expect(graph.unresolved).toEqual([]);
  });

  it.each(FOLDERS)('none in %s', (folder) => {
    const cycles = importCycles(graph.edges).filter((c) => c[0]!.startsWith(`${folder}/`));
    expect(said(cycles)).toEqual([]);
  });

  // The main process's folders (the core's among them) and shared/'s (its top folder only joins
  // the areas below it). renderer/src/ still has one component of folders left (docs/architecture.md,
  // "No import cycles").
  it.each(['electron', 'shared'])('no folder cycle in %s', (folder) => {
    const cycles = importCycles(folderEdges(graph.edges)).filter(
      (c) => c[0] === folder || c[0]!.startsWith(`${folder}/`),
    );
    expect(said(cycles)).toEqual([]);
  });
});

describe('the cycle check itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  };
  write({
    // A loop through a type-only import, a re-export, a folder's index and a component.
    'src/a.ts': "import type { B } from './b';\nexport type A = B;\n",
    'src/b.ts': "export { c as B } from './c/index';\n",
    'src/c/index.ts': "import View from '../view.svelte';\nexport const c = View;\n",
    'src/view.svelte':
      '<script lang="ts">\n  import { type A } from \'./a\';\n  let a: A;\n</script>\n<p>{a}</p>\n',
    // A rune module imported as `./x.svelte`, importing its importer back.
    'src/store.svelte.ts': "import { d } from './d';\nexport const store = d;\n",
    'src/d.ts': "export const d = () => import('./store.svelte');\n",
    // Folders importing each other through different files: no file cycle, a folder cycle.
    'src/p/a.ts': "import '../q/b';\n",
    'src/q/b.ts': 'export const b = 1;\n',
    'src/q/c.ts': "import '../p/d';\n",
    'src/p/d.ts': 'export const d = 1;\n',
    // A chain that only looks like a loop.
    'src/e.ts': "import './f';\n",
    'src/f.ts': "import './g.css';\n",
    'src/g.css': 'p {}\n',
  });

  it('reports each cycle with its files in import order, back to the first', () => {
    const graph = importGraph(dir, ['src']);
    expect(graph.unresolved).toEqual([]);
    expect(said(importCycles(graph.edges))).toEqual([
      'src/a.ts → src/b.ts → src/c/index.ts → src/view.svelte → src/a.ts',
      'src/d.ts → src/store.svelte.ts → src/d.ts',
    ]);
  });

  it('reports folders that import each other, though no file imports itself back', () => {
    const graph = importGraph(dir, ['src']);
    expect(said(importCycles(folderEdges(graph.edges)))).toEqual([
      'src → src/c → src',
      'src/p → src/q → src/p',
    ]);
    // No file of p and q imports itself back: only the folders make a loop.
    expect(said(importCycles(graph.edges)).filter((c) => c.includes('src/p/'))).toEqual([]);
  });

  it('names an import that leads to no file', () => {
    write({ 'lost/x.ts': "import './nowhere';\n" });
    expect(importGraph(dir, ['lost']).unresolved).toEqual([
      { from: 'lost/x.ts', specifier: './nowhere' },
    ]);
  });
});
