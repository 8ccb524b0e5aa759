'use strict';
/*
 * Bench only (scripts/bench/phases/floor.ts): n8n's floor for sending one request per item. Each
 * item carries its body ready-made; the node reads the credential once and sends every body with
 * the same n8n helper and request options as Chat Messaging's transport, the same number at once
 * (4), and nothing else: no parameters, no checks, no retries.
 */
const IN_PARALLEL = 4;

class BenchFloor {
	constructor() {
		this.description = {
			displayName: 'Bench Floor',
			name: 'benchFloor',
			group: ['output'],
			version: 1,
			description: 'Sends each item’s body as it is (bench only)',
			defaults: { name: 'Bench Floor' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'chatMessagingApi', required: true }],
			properties: [],
		};
	}

	async execute() {
		const items = this.getInputData();
		const credentials = await this.getCredentials('chatMessagingApi');
		const url = `${String(credentials.baseUrl).replace(/\/+$/, '')}/api/v1/events`;
		const output = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const itemIndex = next++;
				const response = await this.helpers.httpRequestWithAuthentication.call(
					this,
					'chatMessagingApi',
					{
						method: 'POST',
						url,
						json: true,
						encoding: 'text',
						returnFullResponse: true,
						ignoreHttpStatusErrors: true,
						disableFollowRedirect: true,
						maxRedirects: 0,
						headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
						body: items[itemIndex].json.body,
					},
					{
						credentialsDecrypted: { id: '', name: '', type: 'chatMessagingApi', data: credentials },
					},
				);
				output[itemIndex] = {
					json: { statusCode: response.statusCode },
					pairedItem: { item: itemIndex },
				};
			}
		};
		await Promise.all(Array.from({ length: IN_PARALLEL }, worker));
		return [output];
	}
}

module.exports = { BenchFloor };
