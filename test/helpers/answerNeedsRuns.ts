/*
 * How the needs property (answers-read-only-for-what-the-node-needs.property.test.ts) runs each
 * operation, and which of the service's reference examples (test/fixtures/reference/) seed it.
 *
 * Most operations run with the parameters of validOperations.ts, their answered request found by
 * running them once against the stand-in. Media → Upload takes a file, so it runs from an item
 * with one (binaryItems.ts); Send Template and Wait for Response picks the stand-in's
 * refund_approval template and leaves the execution waiting (refundApproval.ts).
 *
 * Media → Upload runs with Upload Method JSON only. Direct Upload could run here too, with only its
 * finalize answer served (the reservation and the bytes going to the stand-in), but that answer may
 * name the upload only by the signed_id of the reservation made during the run, so it would be
 * served without one; not done yet: upload-and-send-and-wait-answers-the-contract-allows.property.test.ts
 * serves its three steps.
 */
import type { INode, INodeExecutionData } from 'n8n-workflow';

import type { StandInService } from '../../sandbox/server';
import { runUpload, testBytes } from './binaryItems';
import { runChatMessaging, type WorkflowRun } from './engineHarness';
import type { AnsweredRequest } from './contractAnswerCases';
import { firstPlaceholderNumber, readReferenceExamples } from './referenceExamples';
import { REFUND_APPROVAL_TEMPLATE, askAdaForRefundApproval } from './refundApproval';
import { ADA, ORDER_UPDATE, operations } from './validOperations';
import type { Json } from './answerMutations';

export type OperationRun = () => Promise<
	WorkflowRun & { output: INodeExecutionData[] | undefined }
>;

/** The file every upload of the property sends. */
const FILE = { bytes: testBytes(64), fileName: 'ok.png', mimeType: 'image/png' };

/** The operations that run other than from validOperations.ts, and the request whose answer is read. */
export const RUN_APART: Record<string, AnsweredRequest> = {
	'message → sendAndWait': { method: 'POST', path: '/api/v1/events', operationId: 'sendEvent' },
	'media → upload': { method: 'POST', path: '/api/v1/medias', operationId: 'addMedia' },
};

/** One run of the operation, Continue On Fail on, against the stand-in. */
export function runOf(name: string, service: StandInService, apiKey: string): OperationRun {
	if (name === 'message → sendAndWait') return () => askAdaForRefundApproval(service, apiKey, ADA);
	if (name === 'media → upload')
		return () =>
			runUpload({
				items: [{ binary: { data: FILE } }],
				parameters: { uploadMethod: 'json' },
				baseUrl: service.url,
				apiKey,
				continueOnFail: true,
			});
	return () =>
		runChatMessaging({
			items: [{}],
			parameters: operations[name].parameters as INode['parameters'],
			baseUrl: service.url,
			apiKey,
			continueOnFail: true,
		});
}

/** Who and which template a send's answer must name to be about the run's send (interface §4.1). */
export const SENT_TO: Record<string, { phone: string; template: string }> = {
	'message → sendTemplate': { phone: ADA, template: ORDER_UPDATE },
	'message → sendAndWait': { phone: ADA, template: REFUND_APPROVAL_TEMPLATE },
};

const isObject = (value: unknown): value is Record<string, Json> =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/** A send's answer about the run's send: its contact and template, where the answer names them. */
export function aboutTheSend(name: string, body: Json): Json {
	const sent = SENT_TO[name];
	if (sent === undefined || !isObject(body)) return body;
	const shaped = { ...body };
	if (isObject(body.contact)) shaped.contact = { ...body.contact, phone_number: sent.phone };
	if (isObject(body.template_message))
		shaped.template_message = { ...body.template_message, chat_template_id: sent.template };
	return shaped;
}

/**
 * The reference examples of a success answer each operation reads (the answer the page shows, or a
 * schema page's example of the whole answer). A page that shows no status is served with the
 * endpoint's success statuses, as a generated answer is.
 */
export const REFERENCE_SEEDS: Record<string, readonly string[]> = {
	'message → sendTemplate': ['messages/send-template-message.older.answer-201.json'],
	'message → sendAndWait': ['messages/send-template-message.older.answer-201.json'],
	'message → getMany': ['schemas/message-response.newer.json'],
	'aiAgent → connectContact': ['messages/connect-to-ai-agent.older.answer-200.json'],
	'conversation → assignAgent': ['conversations/agent-assignment.older.answer-200.json'],
	'conversation → close': ['conversations/close-conversation.older.answer-200.json'],
	'contact → createMany': ['contacts/create-contact-on-peach.older.answer-201.json'],
	'order → create': ['orders/create-order.older.answer.json', 'schemas/order.newer.json'],
	'order → get': ['orders/find-order.newer.answer-200.json', 'schemas/order.newer.json'],
	'media → getMany': ['media/list-medias.older.answer-200.json'],
	'template → getMany': ['templates/list-templates.newer.answer-200.json'],
	'template → get': ['schemas/whatsapp-template.newer.json'],
	'template → update': ['templates/update-template.older.answer-200.json'],
};

/**
 * Reference examples of answers or schemas that seed no operation, and why: each is no success
 * answer of an operation the node runs, or the answer of a step the property does not serve.
 */
export const NOT_SEEDS: Record<string, string> = {
	'schemas/template-message.newer.json': 'a send request (event_type, contact), not an answer',
	'schemas/whatsapp-template-parameters.newer.json': "a template's parameters in a request",
	'schemas/contact.older.json': "a part of an order's request (its contact)",
	'schemas/line-item.older.json': "a part of an order's request (a line item)",
	'schemas/order-expiry.older.json': "a part of an order's request (its expiry)",
	'media/direct-upload.newer.answer.json':
		'the Direct Upload reservation: the property uploads as JSON (its neighbour serves the three steps)',
	'media/finalize.newer.answer.json':
		'the Direct Upload finalize: the property uploads as JSON (its neighbour serves the three steps)',
	'media/upload-too-large.newer.answer-422.json': 'a refusal, not a success',
	'media/upload-unauthorized.newer.answer-401.json': 'a refusal, not a success',
	'media/upload-unsupported-type.newer.answer-422.json': 'a refusal, not a success',
};

export interface ReferenceSeed {
	file: string;
	/** The status the page shows, or undefined to serve each success status of the endpoint. */
	status: number | undefined;
	body: Json;
}

const EXAMPLES = new Map(readReferenceExamples());

/** The operation's reference seeds, the older pages' "+1… or +91…" read as its first number. */
export function referenceSeeds(name: string): ReferenceSeed[] {
	return (REFERENCE_SEEDS[name] ?? []).map((file) => {
		const found = EXAMPLES.get(file);
		if (found === undefined) throw new Error(`no reference example ${file}`);
		return {
			file,
			status: found.status ?? undefined,
			body: firstPlaceholderNumber(found.example) as Json,
		};
	});
}

/** Every reference example of an answer or a whole-answer schema: seeds, or named in NOT_SEEDS. */
export function referenceAnswerFiles(): string[] {
	return [...EXAMPLES]
		.filter(([, example]) => example.kind === 'answer' || example.kind === 'schema')
		.map(([file]) => file);
}
