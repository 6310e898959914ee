/** The domain in one import: the service's resources and the draft's types. */
export * from './resources';
export type {
  DiffRow,
  DraftDiff,
  DraftError,
  DraftErrorCode,
  DraftRowInput,
  DraftValidation,
  HeldPosition,
  RowError,
  RowErrorCode,
  TargetPosition,
  ValidatedRow,
} from '../draft/types';
export { MAX_ROWS, MAX_WEIGHT } from '../draft/types';
