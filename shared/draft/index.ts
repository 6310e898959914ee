/** The draft core: validation, diff, execute body, editing helpers and paste parsing. */
export * from './types';
export { validateDraft, parseImportedWeight } from './validate';
export type { ValidateOptions, ImportedWeight } from './validate';
export { diffDraft, predictAction, predictRow } from './diff';
export type { RowPrediction } from './diff';
export { createDraftAnalyzer } from './analyzer';
export type { DraftAnalysis, DraftAnalyzer } from './analyzer';
export { buildExecuteBody, validOrThrow, InvalidDraftError } from './execute-body';
export { rescaleToTotal, setToZero, RESCALE_PLACES } from './edit';
export type { RescaleResult } from './edit';
export { parseDraftPaste, describePaste, pasteProblems, PASTE_LIMITS } from './paste';
export type { PastedRow, PasteResult } from './paste';
export { normalizeSymbol } from './rules';
export { predictExecution, comparePrediction, doubtsOf, isUncertain } from './prediction';
export type {
  ExecutionPrediction,
  PredictedPosition,
  PredictionDifference,
  RecordedPosition,
  TargetStanding,
} from './prediction';
export { actionWords, DOUBT_WORDS } from './words';
export { checkTarget, compareInstants, hasEndWitness } from './target-check';
export type { KnownVersionFacts, TargetCheck } from './target-check';
