export {
  Restrictions,
  listHashOf,
  type ExecutionRestrictionCheck,
  type NewRestriction,
} from './restrictions';
export { checkEndedRebalance } from './after-end';
export { readRestrictionsCsv, restrictionsCsvFile, csvWhere } from './csv';
export { restrictedOrderSignals } from './signals';
