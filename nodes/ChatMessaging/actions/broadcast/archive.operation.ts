import { statusChange } from './statusChange';

/** Files away a sent broadcast or a draft; it stays readable with Get. */
export const archive = statusChange(
	'archive',
	'The ID of the sent or draft broadcast to archive, e.g. cmp_5f2a9c1e7b3d4a60',
);
