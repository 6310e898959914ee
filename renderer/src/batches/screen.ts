/** The batch views' entry, as one lazily loaded module (load.ts). */
export { default as BatchesScreen } from './BatchesScreen.svelte';
