import { statusChange } from './statusChange';

/** A draft or rejected template goes to WhatsApp's review; it is pending until approved or rejected. */
export const submitForApproval = statusChange(
	'submitForApproval',
	'submit',
	'The ID of the draft or rejected template to submit for approval, e.g. wat_1a2b3c4d5e6f7081',
);
