import {
	createAccountSideService,
	UPLOAD_BODY_LIMITS,
	type AccountSideService,
} from './service/accountSideService';
import type { Clock } from './service/clock';
import type { EventHandler, ServicePart } from './service/parts';
import { createSendSideService } from './service/sendSideService';
import type { TemplateListing } from './service/templateRoutes';
import { createCommandEndpoints } from './serviceEndpoints';

/*
 * Every area of the service the running stand-in answers, each with its own state. Adding an area
 * is one line here: an object with its `routes` and the `events` (event types of
 * `POST /api/v1/events`) it answers, as in sandbox/service/parts.ts.
 */

export interface ServicePartsOptions {
	/** The clock the areas read "later" from; a test pins and moves it. */
	now?: Clock;
	/** How the template list is answered (service/templateRoutes.ts); either way by default. */
	templateList?: TemplateListing;
	/** See CommandOptions in serviceEndpoints.ts. */
	refuseUnknownTemplates?: boolean;
}

export function createServiceParts(options: ServicePartsOptions = {}): ServicePart[] {
	const sendSide = createSendSideService({ now: options.now, templateList: options.templateList });
	const accountSide = createAccountSideService({ now: options.now });
	return [
		// Accepted sends and commands are recorded by the send side, so they can be polled; what
		// they make (contacts, an agent's assignment) is kept by the account side, so it can be read.
		createCommandEndpoints(sendSide, accountSide, {
			refuseUnknownTemplates: options.refuseUnknownTemplates,
		}),
		sendSide,
		accountSidePart(accountSide),
	];
}

/**
 * Contacts, conversations, orders and media as one part: `close_conversation` on the events
 * endpoint beside the send side's commands, and the direct upload's PUT as the storage service's
 * signed URL takes it: raw bytes of any type, no API key (the token in the path is the authority).
 */
export function accountSidePart(accountSide: AccountSideService): ServicePart {
	const { directUpload } = accountSide;
	const events: Record<string, EventHandler> = {};
	for (const eventType of accountSide.eventTypes) {
		// handleEvent answers every type it lists, so the fallback is never reached.
		events[eventType] = (body) => accountSide.handleEvent(eventType, body) ?? { status: 500 };
	}
	return {
		routes: [
			...accountSide.routes,
			{
				method: directUpload.method,
				pattern: directUpload.pattern,
				rawBody: true,
				withoutApiKey: true,
				maxBodyBytes: UPLOAD_BODY_LIMITS.directUpload,
				handler: ({ params, headers, bytes }) =>
					directUpload.handler({ params, headers: headers ?? {}, body: bytes ?? Buffer.alloc(0) }),
			},
		],
		events,
	};
}
