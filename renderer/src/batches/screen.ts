/** The batch view's entry, as one lazily loaded module (load.ts). */
export { default as BatchPanel } from './BatchPanel.svelte';
