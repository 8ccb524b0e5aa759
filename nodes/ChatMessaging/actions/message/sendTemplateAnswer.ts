import type { SendTemplateBody } from '../../../shared/schemas';
import type { ServiceAnswer } from '../../../shared/transport';
import { answerFields, answerNotForThisItem } from '../run/serviceAnswers';

const digits = (phone: string) => phone.replace(/\D/g, '');

/**
 * The 201 repeats the request (spec §4.1): a repeat naming another contact or template says the
 * service queued something else, so this item is not reported queued. A repeat that leaves them out
 * says nothing against it; the number is compared by its digits, however the service writes it.
 */
export function checkAnswerIsAboutThisSend(answer: ServiceAnswer, sent: SendTemplateBody): void {
	const body = answerFields(answer) as {
		contact?: { phone_number?: unknown };
		template_message?: { chat_template_id?: unknown };
	};
	const phone = body.contact?.phone_number;
	const templateId = body.template_message?.chat_template_id;
	const other =
		typeof phone === 'string' && digits(phone) !== digits(sent.contact.phone_number)
			? `the contact ${phone}, not ${sent.contact.phone_number}`
			: typeof templateId === 'string' && templateId !== sent.template_message.chat_template_id
				? `the template ${templateId}, not ${sent.template_message.chat_template_id}`
				: undefined;
	if (other === undefined) return;
	throw answerNotForThisItem(
		answer,
		`The service answered ${answer.statusCode} about ${other}`,
		'The message may have been sent: the service received it, but its answer is about another send, so it is not reported queued and was not repeated. Check the conversation or the delivery webhooks before running this item again.',
	);
}
