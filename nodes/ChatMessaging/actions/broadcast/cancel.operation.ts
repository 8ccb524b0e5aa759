import { statusChange } from './statusChange';

/** Stops a broadcast that has not started (queued or scheduled); it goes back to a draft. */
export const cancel = statusChange(
	'cancel',
	'The ID of the queued or scheduled broadcast to cancel, e.g. cmp_5f2a9c1e7b3d4a60',
);
