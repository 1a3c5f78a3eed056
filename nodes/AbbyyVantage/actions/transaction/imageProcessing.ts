import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { choiceOptions, choiceValues } from '../../helpers/choices';
import { requireOption } from '../../helpers/validation';

/**
 * Auto Crop and Auto Orientation: how Vantage prepares the images it imports, for Process Document,
 * Add Files and Transaction Document → Add.
 */

/** PreprocessingOperationSwitcher of the OpenAPI document, in its order. */
const SWITCHER_CHOICES = [
	{ name: 'Default', value: 'Default', description: 'Use the skill’s setting' },
	{ name: 'Yes', value: 'Yes' },
	{ name: 'No', value: 'No' },
] as const;
const SWITCHER = choiceValues(SWITCHER_CHOICES);
const switcherOptions = choiceOptions(SWITCHER_CHOICES);

/** Auto Crop and Auto Orientation, for an options collection. */
export const imageProcessingOptions: INodeProperties[] = [
	{
		displayName: 'Auto Crop',
		name: 'autoCrop',
		type: 'options',
		options: switcherOptions,
		default: 'Default',
		description: 'Whether images are cropped automatically on import',
	},
	{
		displayName: 'Auto Orientation',
		name: 'autoOrientation',
		type: 'options',
		options: switcherOptions,
		default: 'Default',
		description: 'Whether the page orientation of images is corrected automatically on import',
	},
];

/** `imageProcessingOptions` with only what was set, or undefined. */
export function readImageProcessing(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): IDataObject | undefined {
	const result: IDataObject = {};
	if (options.autoCrop !== undefined) {
		result.autoCrop = requireOption(ctx, itemIndex, 'Auto Crop', options.autoCrop, SWITCHER);
	}
	if (options.autoOrientation !== undefined) {
		result.autoOrientation = requireOption(
			ctx,
			itemIndex,
			'Auto Orientation',
			options.autoOrientation,
			SWITCHER,
		);
	}
	return Object.keys(result).length ? result : undefined;
}
