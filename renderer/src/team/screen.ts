/** The Team screen's entry, as one lazily loaded module (load.ts). */
export { default as TeamScreen } from './TeamScreen.svelte';
