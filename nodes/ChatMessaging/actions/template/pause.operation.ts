import { statusChange } from './statusChange';

/** Pausing stops sends of an approved template until it is approved again. */
export const pause = statusChange(
	'pause',
	'pause',
	'The ID of the approved template to pause, e.g. wat_1a2b3c4d5e6f7081',
);
