import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY } from 'n8n-workflow';
import { DateTime } from 'luxon';

import type { SendTemplateBody } from '../../../shared/schemas';
import type { ServiceId } from '../../../shared/schemas/serviceIds';
import { isVariableName } from '../../../shared/templateComponents';
import { InvalidParameter } from '../../../shared/validation';
import type { TemplateSendOperation } from '../../methods/templateSend';
import { perItemWithTemplates } from '../../methods/templateSend';
import type { Action } from '../operationKinds';
import { runsAsAgentTool } from '../run/agentTool';
import type { OperationRun } from '../run/operationRun';
import type { FilledVariables } from './filledVariables';
import { sendAndWaitDescription } from './sendAndWait.description';
import { prepareSendTemplate, sendTemplate } from './sendTemplate.operation';
import { readMoment } from './messageReaders';
import { sentEventId } from './sentEventId';
import { WAIT_IN_LINK, nextWait } from './currentWait';

/*
 * Send Template and Wait for Response: Send Template's request with the response link in one of
 * the template's variables, then the execution waits (n8n keeps it, no process waits) until the
 * contact answers on the page behind the link (responsePage.ts, through the node's webhook) or the
 * wait limit passes.
 *
 * The link is n8n's signed resume URL: n8n checks its signature before the node sees the request,
 * for nodes whose operation is `sendAndWait` only (hence the value). It also says which of this
 * node's waits it is for, so that the node asking twice in one execution sends two links and only
 * the current one answers (currentWait.ts). On an n8n before 2.14.0 the operation sends nothing (see needsNewerN8n).
 */

/**
 * The first n8n on which the operation keeps its promises. Before it (n8n source, compared with 2.x):
 * - below 1.107 there are no signed resume links (getSignedResumeUrl), and a resume link is the
 *   execution's ID, which anyone can guess;
 * - before 2.14 n8n checks a link's signature only for an execution that asked for it
 *   (setSignatureValidationRequired, which 2.14 replaced by a resume token in every execution);
 * - in n8n 1.x a waiting execution is resumed by every request that reaches it before n8n marks it
 *   running, and the page is answered before that (WebhookHelpers.executeWebhook responds, then
 *   WorkflowRunner.run; ActiveExecutions.add updates the execution without requiring it to still
 *   be waiting): a second press answers again and the workflow after the node runs twice. 2.0
 *   resumes only a waiting execution (ExecutionAlreadyResumingError) and 2.8 answers the page only
 *   once the resume has begun.
 * The node can tell only the first two apart by what n8n gives it (the methods above), and
 * setSignatureValidationRequired is there on every n8n from 1.107 to 2.13, 1.x included.
 */
export const SEND_AND_WAIT_NEEDS_N8N = '2.14.0';
const RESPONSE_LINK_VARIABLE = 'Response Link Variable';
const MAX_DATE_AND_TIME = 'Limit Wait Time: Max Date and Time';
const LINK_START = 'Link Start in Template';
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;

interface WaitLimit {
	limitType?: string;
	resumeAmount?: number;
	resumeUnit?: string;
	maxDateAndTime?: unknown;
}

const UNIT_MS: Record<string, number> = {
	minutes: 60_000,
	hours: 3_600_000,
	days: 86_400_000,
};

/** When the wait ends without an answer; n8n's "indefinitely" without a limit. */
export function readWaitTill(limit: WaitLimit | undefined, timezone: string, now: number): Date {
	if (limit === undefined || Object.keys(limit).length === 0) return WAIT_INDEFINITELY;
	if ((limit.limitType ?? 'afterTimeInterval') === 'afterTimeInterval') {
		const amount = Number(limit.resumeAmount ?? 1);
		const unit = UNIT_MS[limit.resumeUnit ?? 'hours'];
		if (!Number.isFinite(amount) || amount <= 0 || unit === undefined) {
			throw new InvalidParameter(
				'Limit Wait Time: Amount',
				`must be a number above 0 with a unit of minutes, hours or days, not ${JSON.stringify(limit.resumeAmount)} ${String(limit.resumeUnit)}`,
			);
		}
		const waitTill = new Date(now + amount * unit);
		// Past n8n's "indefinitely" the end is no date n8n can keep (past what a date holds, none
		// at all): refused now, before the send, not after the message went out.
		if (!(waitTill.getTime() <= WAIT_INDEFINITELY.getTime())) {
			throw new InvalidParameter(
				'Limit Wait Time: Amount',
				`${amount} ${String(limit.resumeUnit ?? 'hours')} ends after ${WAIT_INDEFINITELY.toISOString()}, n8n's "indefinitely": remove Limit Wait Time to wait without a limit`,
			);
		}
		return waitTill;
	}
	const raw = limit.maxDateAndTime;
	// Read as every moment the user types is (Retry Until, Updated Since): a calendar date first,
	// and a time the zone skips or passes twice refused rather than moved or picked.
	const read = readMoment(raw, MAX_DATE_AND_TIME, timezone);
	if (read === undefined) {
		throw new InvalidParameter(
			MAX_DATE_AND_TIME,
			`is empty: give the date and time the wait ends (use e.g. 2030-01-31T18:00:00)`,
		);
	}
	const moment = DateTime.fromISO(read, { setZone: true });
	if (moment.toMillis() <= now) {
		throw new InvalidParameter(
			MAX_DATE_AND_TIME,
			`${moment.toISO()} has passed: the contact would have no time to answer`,
		);
	}
	if (moment.toMillis() > WAIT_INDEFINITELY.getTime()) {
		throw new InvalidParameter(
			MAX_DATE_AND_TIME,
			`${moment.toISO()} is after ${WAIT_INDEFINITELY.toISOString()}, n8n's "indefinitely": remove Limit Wait Time to wait without a limit`,
		);
	}
	return moment.toJSDate();
}

/** The variable's value: the whole link, or what follows the start the template already holds. */
export function responseLinkValue(link: string, start: string): string {
	if (start === '') return link;
	if (!link.startsWith(start) || link.length === start.length) {
		const shown = new URL(link);
		shown.search = '';
		throw new InvalidParameter(
			LINK_START,
			`"${start}" is not the start of this n8n's response links (${shown.toString()}…): use the part of the link that stays the same, e.g. ${shown.origin}/webhook-waiting/`,
		);
	}
	return link.slice(start.length);
}

function readLinkVariable(raw: unknown): string {
	const name = typeof raw === 'string' ? raw.trim() : '';
	if (name === '') {
		throw new InvalidParameter(
			RESPONSE_LINK_VARIABLE,
			'is empty: give the name of the template variable that receives the link',
		);
	}
	if (!(isVariableName(name) || VARIABLE_NAME.test(name)) || name === 'header_media') {
		throw new InvalidParameter(
			RESPONSE_LINK_VARIABLE,
			`"${name}" is not a template variable's name (letters, digits, _ and -, like approval_link)`,
		);
	}
	return name;
}

/** Skip Items Already Sent's word on the sent message's key, recorded or not (and then why). */
const SENT_KEY_FIELDS = ['alreadySentKey', 'alreadySentRecorded', 'alreadySentRecordError'];

/** Kept on the waiting item, which is what comes out after the wait: a key not recorded means a re-run sends again. */
function sentKeyFields(sent: IDataObject): IDataObject {
	return Object.fromEntries(
		SENT_KEY_FIELDS.filter((name) => sent[name] !== undefined).map((name) => [name, sent[name]]),
	) as IDataObject;
}

/**
 * The fields this operation writes on the item that comes out: what the wait got (answered, data,
 * respondedAt), the message it sent (event_id), Skip Items Already Sent's word on its key, and a
 * failure's verdict (error, outcome). An input item's fields of these names are the input's, not
 * this wait's: an earlier approval's `data: {approved: true}` (or one a form or webhook body sent in)
 * must never come out of a wait nobody answered looking approved, nor an earlier node's failed item
 * (`error`, `outcome: "not sent"`) make this sent message pass for not sent (and leave by the error
 * output), so they are dropped from the input before the node writes its own.
 */
export const SEND_AND_WAIT_OWN_FIELDS = [
	'answered',
	'data',
	'respondedAt',
	'event_id',
	...SENT_KEY_FIELDS,
	'error',
	'outcome',
] as const;

/** The input item's fields, without those of the names this operation writes. */
function inputWithoutOwnFields(input: IDataObject): IDataObject {
	const rest = { ...input };
	for (const name of SEND_AND_WAIT_OWN_FIELDS) delete rest[name];
	return rest;
}

/** The resume-link method that n8n 1.107 to 2.13 have and 2.14 removed (see SEND_AND_WAIT_NEEDS_N8N). */
interface BeforeN8n214 {
	setSignatureValidationRequired?: unknown;
}

/** Why this n8n cannot run the operation safely, or undefined when it can. */
function needsNewerN8n(context: IExecuteFunctions & BeforeN8n214): string | undefined {
	if (typeof context.getSignedResumeUrl !== 'function') {
		return 'This n8n cannot sign response links, and an unsigned link could be guessed by anyone. Update n8n to use this operation.';
	}
	if (typeof context.setSignatureValidationRequired === 'function') {
		return 'This n8n checks a response link only when asked, and on n8n 1.x a second press of the link (an impatient double tap) answers again and runs the rest of the workflow a second time, so the first answer would not be sure to count. Update n8n to use this operation.';
	}
	return undefined;
}

/** The run's refusals before anything is sent: the node's error, as n8n shows it. */
function refuse(this: IExecuteFunctions, message: string, description: string): never {
	throw new NodeOperationError(this.getNode(), message, { description });
}

async function run(this: IExecuteFunctions, operationRun: OperationRun) {
	const { items } = operationRun;
	if (items.length !== 1) {
		const message = `Send Template and Wait for Response takes one item, and got ${items.length}: nothing was sent`;
		const description =
			'It sends one message and waits for its answer. To ask several contacts one after the other, put a Loop Over Items node (batch size 1) in front of it: each contact gets a link of their own, which answers only their question. Or run a sub-workflow per contact (Execute Workflow), where each wait is an execution of its own.';
		// Which item's contact was meant cannot be known, so none is asked; each item says why.
		if (operationRun.continueOnFail) {
			return items.map((_item, itemIndex) => ({
				json: { error: message, description, outcome: 'not sent' },
				pairedItem: { item: itemIndex },
			}));
		}
		refuse.call(this, message, description);
	}
	if (runsAsAgentTool(this) || typeof this.putExecutionToWait !== 'function') {
		// An AI agent's tool cannot pause the workflow for the answer. n8n-core gives a tool call's
		// context putExecutionToWait all the same (it is on every execute context), so the tool
		// variant is refused by its type: otherwise the message went out with a link, whichever way
		// the agent runs its tools.
		refuse.call(
			this,
			'Send Template and Wait for Response cannot wait here: nothing was sent',
			'Only the node itself can pause the workflow for an answer; as a tool of an AI agent it cannot. Use it as a node in the workflow.',
		);
	}
	const whyNot = needsNewerN8n(this);
	if (whyNot !== undefined) {
		refuse.call(
			this,
			`Send Template and Wait for Response needs n8n ${SEND_AND_WAIT_NEEDS_N8N} or later: nothing was sent`,
			whyNot,
		);
	}

	const link = this.getSignedResumeUrl({ [WAIT_IN_LINK]: nextWait(this) });
	const variableRaw = this.getNodeParameter('responseLinkVariable', 0, '');
	const startRaw = this.getNodeParameter('responseLinkStart', 0, '');
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const limit = (options.limitWaitTime as IDataObject | undefined)?.values as WaitLimit | undefined;
	let filled: FilledVariables;
	let waitTill: Date;
	try {
		const start = typeof startRaw === 'string' ? startRaw.trim() : '';
		filled = { [readLinkVariable(variableRaw)]: responseLinkValue(link, start) };
		waitTill = readWaitTill(limit, this.getTimezone(), Date.now());
	} catch (error) {
		throw operationRun.optionError(error);
	}

	let sent = false;
	/** The event the send created, read as Send Template reads it (its eventId). */
	let eventId: ServiceId | null = null;
	const withLink: TemplateSendOperation<SendTemplateBody> = {
		...sendTemplate,
		description: sendAndWaitDescription,
		prepare(itemIndex, templates) {
			return prepareSendTemplate.call(this, itemIndex, templates, filled);
		},
		toOutput(answer, request) {
			// Only once the answer confirms this message: one about another send throws first, and
			// its item goes on at once as "may have been sent", like any other unconfirmed send.
			const output = sendTemplate.toOutput(answer, request);
			sent = true;
			eventId = sentEventId(answer) ?? null;
			return output;
		},
	};
	const output = await perItemWithTemplates(withLink).run.call(this, operationRun);
	// Not confirmed (Continue On Fail): the item goes on now, saying what became of the message.
	if (!sent) return output;

	const waiting: INodeExecutionData = {
		json: {
			...inputWithoutOwnFields(items[0].json),
			...sentKeyFields(output[0].json),
			answered: false,
			event_id: eventId,
		},
		pairedItem: { item: 0 },
	};
	// What the node outputs if the wait ends without an answer: n8n then passes the waiting node's
	// input through unchanged, so that input becomes the item that says nobody answered. A press
	// replaces it with the answer (responsePage.ts reads it back as $json).
	const executeData = this.getExecuteData();
	executeData.data = { ...executeData.data, main: [[waiting]] };
	await this.putExecutionToWait(waitTill);
	return [waiting];
}

export const sendAndWait: Action = {
	description: sendAndWaitDescription,
	run,
};
