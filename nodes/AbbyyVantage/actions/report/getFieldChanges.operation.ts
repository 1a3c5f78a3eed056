import { changesReport } from './changesReport';

/** Report → Get Field Changes: GetFieldsAsCsv, one row per extracted field (./changesReport.ts). */
export const { description, execute } = changesReport('fields');
