/*
 * Send Template with the stand-in's spring_sale template (wat_3c4d5e6f70819203, an image header)
 * and its three variables as fields: the send the header-media tests start from. Spread it and
 * override what a test is about.
 */
export const SPRING_SALE = 'wat_3c4d5e6f70819203';

/** The header image given as a link (the test adds it). */
export const springSaleSend = {
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumber: '+14155550123',
	templateId: SPRING_SALE,
	templateVariables: {
		variable: [
			{ name: 'first_name', value: 'Ada', sendAs: 'string' },
			{ name: 'discount', value: '20%', sendAs: 'string' },
			{ name: 'end_date', value: 'May 31', sendAs: 'string' },
		],
	},
	headerMedia: 'url',
};

/** The header image uploaded from each item's file in `binaryField` (Binary File from Input). */
export function springSaleWithHeaderFile(binaryField: string) {
	return { ...springSaleSend, headerMediaSource: 'binary', headerMediaBinaryField: binaryField };
}
