/** Models: canonical rows and their hash text, comparing weights, sync states (no zod). */
export { canonicalRows, canonicalText, canonicalWeight } from './canonical';
export type { CanonicalRow, ModelRowInput } from './canonical';
export { compareWeights, differingSymbols } from './compare';
export type { WeightChange, WeightComparison } from './compare';
export { syncStateOf, syncStateWords } from './sync';
export type {
  SyncDifference,
  SyncState,
  SyncStateName,
  ChangedElsewhere,
  FailedRebalance,
} from './sync';
export { validateModelRows } from './rules';
export type { ModelValidation } from './rules';
