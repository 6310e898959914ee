export { Restrictions, listHashOf, type ExecutionRestrictionCheck } from './restrictions';
export { checkEndedRebalance } from './after-end';
export { readRestrictionsCsv, restrictionsCsvFile, csvWhere } from './csv';
