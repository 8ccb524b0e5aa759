import {
	loadExample,
	WEBHOOK_CREDENTIAL_NAME,
	WEBHOOK_SECRET_HEADER,
	type ReportTo,
} from './examples';
import { exampleFileChangeLines, type ExampleFileChange } from './exampleFileChanges';

export type { ReportTo } from './examples';

/*
 * What `npm start` prints once everything runs, and the commands in it. Kept apart from start.ts
 * (which starts processes when loaded) so a unit test can read the text and the end-to-end tests
 * can run the very commands a user is told to paste.
 */

/** `REPORT_TO` as the user typed it; unset means production, which needs nothing open in the editor. */
export function parseReportTo(value: string | undefined): ReportTo {
	const given = (value ?? '').trim().toLowerCase();
	if (given === '' || given === 'production') return 'production';
	if (given === 'test') return 'test';
	throw new Error(`REPORT_TO must be "production" or "test", not "${value}"`);
}

/**
 * The event the printed command sends: a delivery report the trigger example starts a run for
 * ("delivered" is one of its Delivery Statuses), so the user sees the whole example run. Its fields
 * are those of the service's reference example of a delivered template message
 * (test/fixtures/reference/webhooks), so what the user sees is what the service will send.
 */
export const TEST_EVENT = {
	type: 'message_delivery.delivered',
	data: {
		message: {
			id: 'cmsg_test_event',
			status: 'delivered',
			type: 'template_message',
			reason: null,
			created_at: '2030-01-31T18:00:00.000Z',
			updated_at: '2030-01-31T18:00:05.000Z',
		},
		contact: {
			id: 1,
			account_id: 1,
			name: 'Test Contact',
			phone_number: '+14155550123',
			first_name: 'Test',
			last_name: 'Contact',
			country_code: '1',
			language: null,
			email: 'test.contact@example.com',
		},
		event: null,
	},
};

export interface StartInfo {
	editorUrl: string;
	ownerEmail: string;
	password: string;
	formUrl: string;
	/** The form example in the editor: n8n opens its own start page after sign-in, not the workflows. */
	firstExampleUrl: string;
	/** The refund example's webhook (Send Template and Wait for Response), when it was provisioned. */
	refundRequestUrl?: string;
	standInUrl: string;
	standInApiKey: string;
	n8nLogFile: string;
	triggerWorkflowName: string;
	productionUrl: string;
	testUrl: string;
	webhookSecret: string;
	reportTo: ReportTo;
	/** Example files that differ from the committed ones or from those imported last time. */
	changedExamples?: ExampleFileChange[];
	/** Examples kept as the person edited them that n8n did not activate, with n8n's reason. */
	notActive?: Array<{ workflowName: string; reason: string }>;
}

export interface StartCommands {
	/** POSTs TEST_EVENT to the trigger's test URL with the example's secret. */
	testEvent: string;
	/** Asks the stand-in to post a realistic delivery report there, with the secret it holds. */
	standInTestEvent: string;
	/** Switches the stand-in's delivery reports to the other URL, while everything runs. */
	switchReports: string;
}

/** One shell word: the values here are URLs, hex and JSON, but a quote must never break a command. */
function quote(value: string): string {
	return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Prints the answer and its status on one line, so a 401 or a 404 is plain to see. */
function curlPost(url: string, body: unknown, headers: Record<string, string> = {}): string {
	return [
		`curl -sS -w ${quote(' (HTTP %{http_code})\\n')} -X POST ${quote(url)}`,
		`-H ${quote('Content-Type: application/json')}`,
		...Object.entries(headers).map(([name, value]) => `-H ${quote(`${name}: ${value}`)}`),
		`-d ${quote(JSON.stringify(body))}`,
	].join(' ');
}

export function startCommands(info: StartInfo): StartCommands {
	const other = info.reportTo === 'test' ? info.productionUrl : info.testUrl;
	return {
		testEvent: curlPost(info.testUrl, TEST_EVENT, { [WEBHOOK_SECRET_HEADER]: info.webhookSecret }),
		standInTestEvent: curlPost(`${info.standInUrl}/_sandbox/webhooks`, {
			url: info.testUrl,
			kind: 'message_delivery',
			event: 'delivered',
		}),
		switchReports: curlPost(`${info.standInUrl}/_sandbox/config`, { deliveryWebhookUrl: other }),
	};
}

/** Where the reports go, and where the user will see the runs they start. */
function reportsLines(info: StartInfo): string[] {
	if (info.reportTo === 'test') {
		return [
			'  Delivery reports:  after each template the form sends, the stand-in reports "sent" and "delivered"',
			'                     to the TEST URL (REPORT_TO=test): the run shows in the editor while the',
			'                     trigger listens (Execute step in its panel); when it does not, n8n answers the',
			"                     stand-in 404 and nothing runs (see the request log's /_sandbox/webhooks/sent).",
		];
	}
	return [
		'  Delivery reports:  after each template the form sends, the stand-in reports "sent" and "delivered"',
		'                     to the PRODUCTION URL: the runs appear under Executions, not in the editor.',
		'                     To see them in the editor instead, start with REPORT_TO=test npm start.',
	];
}

/** The refund example: ask the manager, then let the stand-in answer as the manager (docs/send-and-wait.md). */
function refundLines(info: StartInfo): string[] {
	if (info.refundRequestUrl === undefined) return [];
	const request = JSON.stringify({
		order: 'A-1042',
		amount: '40.00 EUR',
		reason: 'arrived broken',
		manager_phone: '+44 20 7946 0018',
	});
	const answer = JSON.stringify({
		phoneNumber: '+44 20 7946 0018',
		variable: 'approval_link',
		action: 'approve',
	});
	const json = "-H 'content-type: application/json'";
	return [
		'  Approve a refund over WhatsApp (Send Template and Wait for Response): ask the manager,',
		'',
		`  curl -X POST ${quote(info.refundRequestUrl)} ${json} -d ${quote(request)}`,
		'',
		'    and let the stand-in answer as the manager ("approve", "disapprove" or only "open"):',
		'',
		`  curl -X POST ${quote(`${info.standInUrl}/_sandbox/contact/answer`)} ${json} -d ${quote(answer)}`,
		'',
	];
}

/*
 * The AI agent example is imported like the others but cannot run on what `npm start` creates: its
 * chat model needs a provider's credential, and without one its chat answers only "Error in
 * workflow". Said where the example is offered, with what to add and where.
 */
function agentLines(): string[] {
	const { name } = loadExample('agentSendsOrderUpdate');
	return [
		`  AI agent example:  "${name}" needs a model`,
		'                     credential: in its Chat Model node create an OpenAI credential (your API key, or',
		'                     an OpenAI-compatible server as Base URL); else its chat says "Error in workflow".',
		'',
	];
}

/** An edited example that did not activate: its URL and commands here do not work, and why. */
function notActiveLines(info: StartInfo): string[] {
	return (info.notActive ?? []).flatMap(({ workflowName, reason }) => [
		`  Not active:        "${workflowName}" (your edited copy) did not activate: ${reason}`,
		'                     Its URL and commands here do not work until you fix it in the editor; to get',
		'                     the example as shipped, rename or delete it and run npm start again.',
	]);
}

/*
 * The order is what a newcomer needs first: how to sign in, where, which workflow to open and what to
 * do there, all on the first screen; the trigger's details next; where the stand-in's endpoints
 * are described last (one line).
 */
export function startSummary(info: StartInfo): string {
	const commands = startCommands(info);
	const otherName = info.reportTo === 'test' ? 'Production' : 'Test';
	return [
		'',
		'  n8n with Chat Messaging is running.',
		'',
		`  Login:             ${info.ownerEmail} / ${info.password}`,
		`  Editor:            ${info.editorUrl}`,
		`  First example:     ${info.firstExampleUrl}`,
		'  Next:              sign in, then open the First example URL (n8n may show its own start page',
		'                     first). Fill in the Sign-up form below: it sends a template through the',
		'                     stand-in, and its page tells you whether the message went out.',
		`  Sign-up form:      ${info.formUrl}`,
		...notActiveLines(info),
		'',
		...exampleFileChangeLines(info.changedExamples ?? []),
		...(info.changedExamples?.length ? [''] : []),
		`  Trigger example:   "${info.triggerWorkflowName}"`,
		`  Production URL:    ${info.productionUrl}`,
		`  Test URL:          ${info.testUrl}`,
		`  Webhook secret:    ${info.webhookSecret}`,
		`                     (header ${WEBHOOK_SECRET_HEADER}; n8n credential "${WEBHOOK_CREDENTIAL_NAME}")`,
		...reportsLines(info),
		'',
		'  Send a test event:',
		'    1. In the editor, open the trigger example and either open its "Chat Messaging Trigger" node',
		'       and click Execute step or Test this trigger (n8n 1: Test step or Listen for test event),',
		'       which runs the trigger only, or click Execute workflow on the canvas to run the whole',
		'       workflow on the event.',
		'    2. Paste:',
		'',
		`  ${commands.testEvent}`,
		'',
		'       It answers {"received":true,"started":true} (HTTP 200) and the event shows in the editor.',
		'       n8n listens for one run per click; when it is not listening, the Test URL answers',
		'       (HTTP 404) "The requested webhook … is not registered".',
		'    Or let the stand-in send one (it adds the webhook secret itself):',
		'',
		`  ${commands.standInTestEvent}`,
		'',
		`  Send delivery reports to the ${otherName} URL from now on:`,
		'',
		`  ${commands.switchReports}`,
		'',
		...refundLines(info),
		...agentLines(),
		`  Stand-in service:  ${info.standInUrl}   (API key ${info.standInApiKey})`,
		// One line, not the thirty endpoints: they pushed the next commands off the screen (issue 36).
		'  Its endpoints:     listed in sandbox/README.md ("Service endpoints") and docs/openapi.yaml',
		`  Request log:       ${info.standInUrl}/_sandbox/requests`,
		// Playing the contact: the messages each number received, with their links (issue 36 item 8).
		`  Contacts' inbox:   ${info.standInUrl}/_sandbox/inbox   (what each number received, links clickable)`,
		`  n8n log:           ${info.n8nLogFile}`,
		'',
		'  Ctrl-C stops everything.',
		'',
	].join('\n');
}
