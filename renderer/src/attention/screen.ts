/** The Attention screen's entry, as one lazily loaded module (load.ts). */
export { default as AttentionScreen } from './AttentionScreen.svelte';
