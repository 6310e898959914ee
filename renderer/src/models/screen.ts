/** The Models screen's entry, as one lazily loaded module (load.ts). */
export { default as ModelsScreen } from './ModelsScreen.svelte';
