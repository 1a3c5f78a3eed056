import { registrationParameters } from './parameters';

export const { description, execute } = registrationParameters;
