import { z } from 'zod';
import { BUSINESS_PHONE_PATTERN, nonEmpty, phoneNumber } from './fields';
import { isoMomentParameter, pageParameter, perParameter } from './paging';

/*
 * Reading what was sent: one event (a template message, a broadcast launch), template messages in
 * bulk, and the message history (docs/service-contract.md, "The operations named without detail").
 * Queries we send are strict, answers lenient.
 */

/** `sent` and `delivered` are confirmed; `read` and `failed` are not. */
export const deliveryStatuses = ['sent', 'delivered', 'read', 'failed'] as const;
export const messageDirections = ['inbound', 'outbound'] as const;

export const listTemplateMessagesQuery = z
	.object({
		page: pageParameter.optional(),
		per: perParameter.optional(),
		broadcast_id: nonEmpty.optional(),
		updated_since: isoMomentParameter.optional(),
	})
	.strict();

export const listMessagesQuery = z
	.object({
		phone_number: phoneNumber.optional(),
		conversation_id: nonEmpty.optional(),
		business_phone_number: z
			.string()
			.regex(BUSINESS_PHONE_PATTERN, 'must be digits only, without + or spaces')
			.optional(),
		direction: z
			.enum(messageDirections, { errorMap: () => ({ message: 'must be inbound or outbound' }) })
			.optional(),
		page: pageParameter.optional(),
	})
	.strict();
