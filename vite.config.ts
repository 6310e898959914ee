import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./renderer', import.meta.url));

/**
 * The renderer's build: relative paths (served by the browser host and by Electron's custom
 * protocol alike), no inline script (the CSP allows 'self' only), nothing from the network.
 */
export default defineConfig({
  root,
  base: './',
  plugins: [svelte()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2023',
    // Data URIs for fonts or scripts would break the CSP; keep every asset a file.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // Read by the browser host (never served: a hidden folder) to hint the book's chunk early.
    manifest: true,
    sourcemap: false,
    reportCompressedSize: false,
    // One stylesheet for every screen (about 9 KB gzip): a screen loaded later brings no styles
    // of its own to fetch, so the book's first draw waits for its code alone.
    cssCodeSplit: false,
    // The bundler's notes on slow plugins (the Svelte compiler on a busy machine) are no news to
    // whoever runs `npm start`, and they stood before the address it prints.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: { host: '127.0.0.1' },
});
