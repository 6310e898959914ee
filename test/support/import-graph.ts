import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The import graph of the repository's own source, for the cycle check
 * (test/unit/lint/import-cycles.test.ts). Every import counts: `import`, `import type`,
 * `export … from`, a bare `import './x'` and `import('./x')`, in `.ts`/`.js` files and in the
 * `<script>` blocks of `.svelte` files. A type-only import is erased at run time, but it still
 * ties two modules together: neither can be read, moved or tested without the other.
 */

const SOURCE = /\.(ts|js|svelte)$/;

/** Source files under `folders` (relative to `root`), as repository paths with forward slashes. */
export function sourceFiles(root: string, folders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const name of readdirSync(abs).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(abs, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(repoPath(root, path));
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return out;
}

const repoPath = (root: string, abs: string) => relative(root, abs).split(sep).join('/');

/** The code of a file: a Svelte component's `<script>` blocks (instance and module), joined. */
function codeOf(abs: string): string {
  const text = readFileSync(abs, 'utf8');
  if (!abs.endsWith('.svelte')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

/** The specifiers a file imports from, in the order written. */
export function importsOf(abs: string): string[] {
  return ts.preProcessFile(codeOf(abs), true, true).importedFiles.map((f) => f.fileName);
}

/**
 * The file a relative specifier names, as Vite and TypeScript (bundler resolution) find it:
 * the path itself, with `.ts`, `.js` → `.ts`, `.svelte.ts` (a rune module imported as
 * `./x.svelte`), or a folder's `index.ts`. Null when none exists.
 */
export function resolveImport(fromAbs: string, specifier: string): string | null {
  const base = resolve(dirname(fromAbs), specifier);
  const candidates = [
    base,
    `${base}.ts`,
    base.replace(/\.js$/, '.ts'),
    `${base}.js`,
    join(base, 'index.ts'),
    join(base, 'index.js'),
  ];
  // `./x.svelte` is the component when it exists, else the rune module `x.svelte.ts`.
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

export interface ImportGraph {
  /** Each source file and the source files it imports (within the scanned folders). */
  edges: Map<string, string[]>;
  /** Relative imports that name no file: the graph would be incomplete without them. */
  unresolved: { from: string; specifier: string }[];
}

export function importGraph(root: string, folders: readonly string[]): ImportGraph {
  const files = sourceFiles(root, folders);
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  const unresolved: ImportGraph['unresolved'] = [];
  for (const file of files) {
    const abs = join(root, file);
    const targets: string[] = [];
    for (const specifier of importsOf(abs)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveImport(abs, specifier);
      if (target === null) {
        unresolved.push({ from: file, specifier });
        continue;
      }
      const path = repoPath(root, target);
      // Stylesheets and files outside the scanned folders cannot close a cycle here.
      if (known.has(path) && !targets.includes(path)) targets.push(path);
    }
    edges.set(file, targets);
  }
  return { edges, unresolved };
}

/**
 * The same graph between folders: a file stands for the folder it is in (`a/b/c.ts` for `a/b`),
 * and a folder imports another when any of its files imports any of the other's. A folder's
 * imports of itself are left out: only two folders or more make a cycle here.
 */
export function folderEdges(edges: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const folderOf = (file: string) => file.slice(0, Math.max(0, file.lastIndexOf('/')));
  const folders = new Map<string, string[]>();
  for (const [file, targets] of edges) {
    const from = folderOf(file);
    const out = folders.get(from) ?? [];
    folders.set(from, out);
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from && !out.includes(to)) out.push(to);
    }
  }
  return folders;
}

/**
 * The graph's cycles: one per strongly connected component of more than one file (or a file
 * importing itself), given as a path through its files in import order, the first file last
 * again (`a → b → c → a`). A component with several loops shows one; fixing it shows the next.
 */
export function importCycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  return stronglyConnected(edges)
    .filter((c) => c.length > 1 || (edges.get(c[0]!) ?? []).includes(c[0]!))
    .map((component) => cycleThrough(edges, new Set(component)))
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Tarjan's algorithm, iterative (a deep import chain must not overflow the stack). */
function stronglyConnected(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of [...edges.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const targets = edges.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components;
}

/** The shortest loop from the component's first file back to itself, inside the component. */
function cycleThrough(
  edges: ReadonlyMap<string, readonly string[]>,
  component: ReadonlySet<string>,
): string[] {
  const first = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [first];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of edges.get(node) ?? []) {
      if (!component.has(target)) continue;
      if (target === first) {
        const path = [node];
        while (path[0] !== first) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, first];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [first, first];
}
