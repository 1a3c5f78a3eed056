import { skillParameters } from './parameters';

export const { description, execute } = skillParameters;
