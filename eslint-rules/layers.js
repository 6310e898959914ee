// @ts-check
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';

/**
 * Import layering as an allowlist (docs/architecture.md): every file belongs to one layer, and
 * each layer names the layers it may import from; any other import into the repository is
 * refused, and so are `electron` and Node's modules where the layer may not use them. A source
 * file that belongs to no layer is reported, never skipped. Relative
 * specifiers are resolved against the importing file, so `../core/x` and `../../core/x` count
 * the same. Packages other than `electron` and Node's own are not this rule's business.
 *
 * A layer may be cut into sub-layers, listed from the bottom up (as VS Code's base → platform →
 * workbench): inside the layer, a file imports from its own sub-layer and the ones below it,
 * never from one above; a file of the layer in no sub-layer is reported, as a file in no layer is.
 */

/**
 * @typedef {object} Layer
 * @property {string} name
 * @property {string[]} paths   folders (ending in /) or files, relative to the repository root
 * @property {string[]} may     the layers it may import from (itself included when listed)
 * @property {boolean} [node]     may import Node's modules (default false)
 * @property {boolean} [electron] may import `electron` (default false)
 * @property {SubLayer[]} [sublayers] from the bottom up: each may import only from itself and
 *   the ones before it
 */

/**
 * @typedef {object} SubLayer
 * @property {string} name
 * @property {string[]} paths   folders (ending in /) or files, relative to the repository root
 */

const NODE_MODULES = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** @param {string} specifier */
const isNodeModule = (specifier) =>
  specifier.startsWith('node:') || NODE_MODULES.has(specifier.split('/')[0] ?? '');

/** @param {string} specifier */
const isElectron = (specifier) => specifier === 'electron' || specifier.startsWith('electron/');

/**
 * The layer (or sub-layer) a repository path belongs to: the longest matching entry wins, so
 * `electron/core/` beats a wider `electron/`.
 * @template {{ paths: string[] }} L
 * @param {L[]} layers @param {string} path relative, with forward slashes
 * @returns {L | null}
 */
function layerOf(layers, path) {
  let best = /** @type {{ layer: L, length: number } | null} */ (null);
  for (const layer of layers) {
    for (const p of layer.paths) {
      const hit = p.endsWith('/')
        ? `${path}/`.startsWith(p) // a folder's own index counts as inside it
        : path === p ||
          path.replace(/\.(ts|js|svelte)$/, '') === p.replace(/\.(ts|js|svelte)$/, '');
      if (hit && (!best || p.length > best.length)) best = { layer, length: p.length };
    }
  }
  return best?.layer ?? null;
}

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each layer imports only from the layers it is allowed to.' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' }, layers: { type: 'array' } },
        required: ['root', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      refused:
        '{{from}} may import only from {{allowed}}: "{{specifier}}" reaches {{to}} (docs/architecture.md).',
      noElectron: '{{from}} may not import electron: only {{electronLayers}} do.',
      noNode: '{{from}} runs where Node is not: "{{specifier}}" is a Node module.',
      noLayer:
        '{{file}} belongs to no layer: add its folder (or the file) to a layer in eslint.config.js (docs/architecture.md).',
      noSublayer:
        '{{file}} belongs to no sub-layer of {{layer}}: add its folder (or the file) to one of {{sublayers}} in eslint.config.js (docs/architecture.md).',
      upward:
        '{{layer}}/{{from}} may import only from {{allowed}}: "{{specifier}}" runs up to {{to}} (docs/architecture.md).',
    },
  },
  create(context) {
    const { root, layers } = /** @type {{ root: string, layers: Layer[] }} */ (context.options[0]);
    const toRepo = (/** @type {string} */ abs) => relative(root, abs).split(sep).join('/');
    const file = context.filename;
    const from = layerOf(layers, toRepo(file));
    // A file no layer names would import anything unchecked: it is reported, not skipped.
    if (!from)
      return {
        Program: (node) =>
          context.report({ node, messageId: 'noLayer', data: { file: toRepo(file) } }),
      };
    const sublayers = from.sublayers ?? [];
    const fromSub = sublayers.length ? layerOf(sublayers, toRepo(file)) : null;
    if (sublayers.length && !fromSub)
      return {
        Program: (node) =>
          context.report({
            node,
            messageId: 'noSublayer',
            data: {
              file: toRepo(file),
              layer: from.name,
              sublayers: sublayers.map((s) => s.name).join(', '),
            },
          }),
      };
    // The sub-layers this file may import from: its own and the ones below it.
    const below = sublayers.slice(0, fromSub ? sublayers.indexOf(fromSub) + 1 : 0);
    const allowed = new Set(from.may);
    // Named from the layers themselves, so the message follows the configuration.
    const electronLayers = layers
      .filter((l) => l.electron)
      .map((l) => `${l.name} (${l.paths.join(', ')})`)
      .join(', ');

    /** @param {import('estree').Node} node @param {unknown} source */
    function check(node, source) {
      if (typeof source !== 'string') return;
      const data = { from: from?.name ?? '', specifier: source };
      if (source.startsWith('.') || source.startsWith('/')) {
        const target = toRepo(resolve(dirname(file), source));
        const to = target.startsWith('../') ? null : layerOf(layers, target);
        if (to && to === from && fromSub) {
          const toSub = layerOf(sublayers, target);
          if (toSub && below.includes(toSub)) return;
          context.report({
            node,
            messageId: 'upward',
            data: {
              ...data,
              layer: from.name,
              from: fromSub.name,
              allowed: below.map((s) => s.name).join(', '),
              to: toSub ? toSub.name : `"${target}", in no sub-layer`,
            },
          });
          return;
        }
        if (to && allowed.has(to.name)) return;
        context.report({
          node,
          messageId: 'refused',
          data: {
            ...data,
            allowed: [...allowed].join(', '),
            to: to ? to.name : `"${target}", outside every layer`,
          },
        });
        return;
      }
      if (isElectron(source) && !from?.electron)
        context.report({ node, messageId: 'noElectron', data: { ...data, electronLayers } });
      else if (isNodeModule(source) && !from?.node)
        context.report({ node, messageId: 'noNode', data });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { layers: layersRule } };
