import type { INodePropertyOptions } from 'n8n-workflow';

/** An options parameter's choices, written once `as const`: the parameter shows them, checks read them. */
type Choices = ReadonlyArray<Readonly<INodePropertyOptions> & { value: string }>;

/** The values of `choices`, for `requireOption`. */
export function choiceValues<const C extends Choices>(choices: C): Array<C[number]['value']> {
	return choices.map((choice) => choice.value);
}

/** `choices` as a parameter's `options` (n8n's type is mutable). */
export function choiceOptions(choices: Choices): INodePropertyOptions[] {
	return choices.map((choice) => ({ ...choice }));
}
