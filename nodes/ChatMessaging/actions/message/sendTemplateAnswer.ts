import type { SendTemplateBody } from '../../../shared/schemas';
import type { ServiceAnswer } from '../../../shared/transport';
import { answerFields, answerNotForThisItem } from '../run/serviceAnswers';

const digits = (phone: string) => phone.replace(/\D/g, '');

/** An id or number as the answer wrote it, text or a JSON number; anything else names nothing. */
function named(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/**
 * The 201 repeats the request (spec §4.1): a repeat naming another contact or template says the
 * service queued something else, so this item is not reported queued. A repeat that leaves them out
 * says nothing against it; the number is compared by its digits, however the service writes it
 * (text or a JSON number: the contract leaves the repeat's objects open), and so is a template id.
 */
export function checkAnswerIsAboutThisSend(answer: ServiceAnswer, sent: SendTemplateBody): void {
	const body = answerFields(answer) as {
		contact?: { phone_number?: unknown };
		template_message?: { chat_template_id?: unknown };
	};
	const phone = named(body.contact?.phone_number);
	const templateId = named(body.template_message?.chat_template_id);
	const other =
		phone !== undefined && digits(phone) !== digits(sent.contact.phone_number)
			? `the contact ${phone}, not ${sent.contact.phone_number}`
			: templateId !== undefined && templateId !== sent.template_message.chat_template_id
				? `the template ${templateId}, not ${sent.template_message.chat_template_id}`
				: undefined;
	if (other === undefined) return;
	throw answerNotForThisItem(
		answer,
		`The service answered ${answer.statusCode} about ${other}`,
		'The message may have been sent: the service received it, but its answer is about another send, so it is not reported queued and was not repeated. Check the conversation or the delivery webhooks before running this item again.',
	);
}
