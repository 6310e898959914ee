/** The Restrictions screen's entry, as one lazily loaded module (load.ts). */
export { default as RestrictionsScreen } from './RestrictionsScreen.svelte';
