import { registrationParameters } from './transactionParameters';

export const { description, execute } = registrationParameters;
