import { changesReport } from './changesReport';

/** Report → Get Document Changes: GetDocumentsAsCsv, one row per document (./changesReport.ts). */
export const { description, execute } = changesReport('documents');
