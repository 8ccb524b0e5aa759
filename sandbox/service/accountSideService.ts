import { LARGEST_MEDIA_BYTES } from '../contract/bodies/media';
import { BASE64_UPLOAD_MAX_BODY_BYTES } from './media';
import type { Clock } from './clock';
import { createContactStore, type StoredContact } from './contacts';
import { createConversationStore } from './conversations';
import { createMediaStore, type MediaUrlForm } from './media';
import {
	createDirectUploads,
	DIRECT_UPLOAD_PATTERN,
	type RawUploadRequest,
} from './mediaDirectUploads';
import { createOrderStore } from './orders';
import type { Route, RouteAnswer } from './routes';

/** The body of one contact `POST /subscribers` accepted, as the contact store keeps it. */
type UpsertContactBody = Parameters<
	ReturnType<typeof createContactStore>['keepContacts']
>[0][number];

/*
 * The account-side half of the stand-in (issue 13): contacts, conversations, orders and media, with
 * their state kept per instance. serviceParts.ts serves it as one part: `routes` after dispatch.ts's
 * own checks (auth, JSON), `close_conversation` on the events endpoint (`handleEvent`), and the
 * direct upload's PUT as a raw-body route: raw bytes, any content type, no API key.
 */

export interface AccountSideTimings {
	/** A new order is paid (`completed`) this long after it was created, unless it expires first. */
	paymentMs: number;
	/** How long a reserved direct upload's URL takes the bytes. */
	directUploadTtlMs: number;
}

export const DEFAULT_ACCOUNT_SIDE_TIMINGS: AccountSideTimings = {
	paymentMs: 2000,
	// Active Storage's default for its direct-upload URLs.
	directUploadTtlMs: 5 * 60_000,
};

/**
 * The body sizes the stand-in must let through for uploads, above its general 5 MiB: the largest file
 * it takes (a 100 MiB document) as base64 in JSON, and as raw bytes on the direct upload.
 */
export const UPLOAD_BODY_LIMITS = {
	base64Json: BASE64_UPLOAD_MAX_BODY_BYTES,
	directUpload: LARGEST_MEDIA_BYTES,
};

export interface AccountSideOptions {
	/** The clock every status is read from; a test pins and moves it. */
	now?: Clock;
	timings?: Partial<AccountSideTimings>;
	/** How media items' `media_url` is written (media.ts): http(s) links unless told otherwise. */
	mediaUrls?: MediaUrlForm;
	/** Where direct upload URLs point when not at the stand-in (mediaDirectUploads.ts). */
	directUploadBaseUrl?: string;
}

export interface AccountSideService {
	routes: Route[];
	/** The answer to `POST /api/v1/events` for an event type of this side; undefined for any other. */
	handleEvent(eventType: string, body: unknown): RouteAnswer | undefined;
	/** The event types `handleEvent` answers. */
	eventTypes: readonly string[];
	/** `PUT /uploads/:token`: a direct upload's bytes (see mediaDirectUploads.ts). */
	directUpload: { method: 'PUT'; pattern: string; handler(request: RawUploadRequest): RouteAnswer };
	/** Whether a `media_url` names a live media item of the account (for a send's `header_media`). */
	hasMedia(mediaUrl: string): boolean;
	/** Keeps the contacts an accepted `POST /subscribers` made; returns them as stored. */
	keepContacts(accepted: readonly UpsertContactBody[]): StoredContact[];
	/** Keeps the assignment an accepted `assign_agent` made, on the contact's conversation. */
	assignAgent(contact: { name: string; phone_number: string }, agentEmail: string): void;
}

export function createAccountSideService(options: AccountSideOptions = {}): AccountSideService {
	const now = options.now ?? Date.now;
	const timings: AccountSideTimings = { ...DEFAULT_ACCOUNT_SIDE_TIMINGS, ...options.timings };
	const contacts = createContactStore(now);
	const conversations = createConversationStore(now);
	const orders = createOrderStore(now, timings.paymentMs);
	const media = createMediaStore(now, options.mediaUrls);
	const uploads = createDirectUploads(
		now,
		media,
		timings.directUploadTtlMs,
		options.directUploadBaseUrl,
	);

	return {
		routes: [
			...contacts.routes,
			...conversations.routes,
			...orders.routes,
			...uploads.routes,
			...media.routes,
		],
		handleEvent(eventType, body) {
			return eventType === 'close_conversation' ? conversations.handleClose(body) : undefined;
		},
		eventTypes: ['close_conversation'],
		directUpload: { method: 'PUT', pattern: DIRECT_UPLOAD_PATTERN, handler: uploads.handleUpload },
		hasMedia: (mediaUrl) => media.hasMedia(mediaUrl),
		keepContacts: (accepted) => contacts.keepContacts(accepted),
		assignAgent: (contact, agentEmail) => conversations.assignAgent(contact, agentEmail),
	};
}
