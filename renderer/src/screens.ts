/** The screens past the first, as one module loaded when one of them is first shown (lib/screens.ts). */
export { default as StrategyPane } from './components/StrategyPane.svelte';
export { default as ProfileActivity } from './activity/ProfileActivity.svelte';
