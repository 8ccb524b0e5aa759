import type { Clock } from './service/clock';
import type { ServicePart } from './service/parts';
import { createSendSideService } from './service/sendSideService';
import { createCommandEndpoints } from './serviceEndpoints';

/*
 * Every area of the service the running stand-in answers, each with its own state. Adding an area
 * is one line here: an object with its `routes` and the `events` (event types of
 * `POST /api/v1/events`) it answers, as in sandbox/service/parts.ts.
 */

export interface ServicePartsOptions {
	/** The clock the areas read "later" from; a test pins and moves it. */
	now?: Clock;
}

export function createServiceParts(options: ServicePartsOptions = {}): ServicePart[] {
	const sendSide = createSendSideService({ now: options.now });
	return [
		// Accepted sends and commands are recorded by the send side, so they can be polled.
		createCommandEndpoints(sendSide),
		sendSide,
	];
}
