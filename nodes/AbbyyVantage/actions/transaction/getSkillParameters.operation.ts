import { skillParameters } from './transactionParameters';

export const { description, execute } = skillParameters;
