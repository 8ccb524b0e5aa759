import { statusChange } from './statusChange';

/** Archived templates can no longer be sent; the service allows it from approved, rejected or draft. */
export const archive = statusChange(
	'archive',
	'archive',
	'The ID of the template to archive, e.g. wat_1a2b3c4d5e6f7081',
);
