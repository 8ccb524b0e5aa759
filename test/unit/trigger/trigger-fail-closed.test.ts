import type { IWebhookFunctions } from 'n8n-workflow';

import { ChatMessagingTrigger } from '../../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node';

/*
 * If webhook() throws, n8n 2.40 answers 500 itself and still records an execution of the
 * workflow, carrying the error (webhook-helpers.js, executeWebhook). So whatever goes wrong while
 * checking a call, the trigger must answer by itself, log why, and hand n8n nothing to run.
 */

function contextWhere(broken: 'headers' | 'rawBody') {
	const written: { status?: number; body?: string } = {};
	const logged: Array<{ level: string; message: string }> = [];
	const request = {
		get headers(): Record<string, string> {
			if (broken === 'headers') throw new Error('headers unavailable');
			return { 'content-type': 'application/json' };
		},
		get headersDistinct(): undefined {
			return undefined;
		},
		get rawBody(): Buffer {
			if (broken === 'rawBody') throw new Error('socket gone');
			return Buffer.from('{"type":"order.completed","data":{}}');
		},
	};
	const response = {
		headersSent: false,
		writeHead(status: number) {
			written.status = status;
			this.headersSent = true;
		},
		end(body: string) {
			written.body = body;
		},
	};
	const log = (level: string) => (message: string) => logged.push({ level, message });
	const context = {
		getRequestObject: () => request,
		getResponseObject: () => response,
		getNodeParameter: (_name: string, fallback: unknown) => fallback,
		getCredentials: async () => ({}),
		logger: { debug: log('debug'), warn: log('warn'), error: log('error'), info: log('info') },
	} as unknown as IWebhookFunctions;
	return { context, written, logged };
}

describe('webhook() never throws', () => {
	it('answers 500 with a reason and logs an error when reading the request fails', async () => {
		const { context, written, logged } = contextWhere('headers');
		const result = await new ChatMessagingTrigger().webhook.call(context);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(written.status).toBe(500);
		expect(JSON.parse(written.body!)).toEqual({
			received: false,
			started: false,
			error: 'the trigger could not check this call',
		});
		expect(logged).toContainEqual({
			level: 'error',
			message: expect.stringContaining('headers unavailable'),
		});
	});

	it('answers 400 when the raw body cannot be read', async () => {
		const { context, written } = contextWhere('rawBody');
		const result = await new ChatMessagingTrigger().webhook.call(context);
		expect(result.workflowData).toBeUndefined();
		expect(written.status).toBe(400);
		expect(JSON.parse(written.body!)).toMatchObject({ error: 'body could not be read' });
	});
});
