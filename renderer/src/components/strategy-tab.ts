import type { Component } from 'svelte';
import type { StrategyView } from '../../../shared/views';

/** What the strategy pane hands each of its tabs: the same for every tab. */
export type StrategyTabProps = {
  strategy: StrategyView;
  /** The tab changed the strategy (an execution, a deletion): the pane reads it again. */
  onChanged: () => void;
  /** Shows a version's detail in the Versions tab. */
  openVersion: (versionId: string) => void;
  /** The version the Versions tab shows in detail (null: its list). */
  versionId: string | null;
};

/** One tab of the strategy pane; its name is its label and its id in the page. */
export type StrategyTab = { name: string; component: Component<StrategyTabProps> };
