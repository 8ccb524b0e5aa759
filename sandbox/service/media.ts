import type { z } from 'zod';
import { describeIssues } from '../../nodes/shared/schemas';
import { addMediaBody, listMediaQuery, type MediaContentType } from '../../nodes/shared/schemas/media';
import { DAY, iso, type Clock } from './clock';
import { paginate } from './pagination';
import { checkQuery, notFound, ok, type Checked, type Route, type RouteAnswer } from './routes';

/*
 * `/api/v1/medias`: the account's media library. Ids are integers counted up from the seeded ones,
 * and each item's link is `media://<id>`, as the reference shows. The list is newest first and says
 * `previous` (not `prev`), as the reference's media list does. A removed item is gone: from the
 * list, from a second DELETE (404) and from `hasMedia`, which a send's `header_media` check can ask.
 * Upload refusals use the shape the reference shows for uploads, `{status: "failed", reason}`.
 */

export interface StoredMedia {
	id: number;
	filename: string;
	content_type: MediaContentType;
	media_url: string;
	created_at: string;
	byte_size: number;
	/** Set when the item came through the direct upload. */
	signed_id?: string;
}

/** The upload refusal the reference shows: 422 `{"status":"failed","reason":{field: [messages]}}`. */
export function mediaRefusal(reason: Record<string, string[]>): RouteAnswer {
	return { status: 422, body: { status: 'failed', reason } };
}

export function checkMediaBody<S extends z.ZodTypeAny>(schema: S, body: unknown): Checked<z.infer<S>> {
	const result = schema.safeParse(body);
	if (result.success) return { value: result.data as z.infer<S> };
	return { error: mediaRefusal(describeIssues(result.error)) };
}

/** What a client sees of an item (the reference's fields); `signed_id` only for direct uploads. */
export function mediaAnswer({ byte_size: _size, signed_id, ...shown }: StoredMedia) {
	return signed_id === undefined ? shown : { ...shown, signed_id };
}

export function createMediaStore(now: Clock) {
	const items = new Map<number, StoredMedia>();
	let lastId = 0;

	function add(file: { filename: string; content_type: MediaContentType; byte_size: number; signed_id?: string }, at = now()) {
		const id = ++lastId;
		const media: StoredMedia = { id, ...file, media_url: `media://${id}`, created_at: iso(at) };
		items.set(id, media);
		return media;
	}

	const seededAt = now();
	add({ filename: 'welcome.jpg', content_type: 'image/jpeg', byte_size: 48_213 }, seededAt - 5 * DAY);
	add({ filename: 'price-list.pdf', content_type: 'application/pdf', byte_size: 182_044 }, seededAt - 2 * DAY);

	const routes: Route[] = [
		{
			method: 'GET',
			pattern: '/api/v1/medias',
			handler: ({ query }) => {
				const checked = checkQuery(listMediaQuery, query);
				if ('error' in checked) return checked.error;
				const newestFirst = [...items.values()].sort((a, b) => b.id - a.id);
				const cut = paginate(newestFirst, checked.value);
				return ok({ count: cut.count, medias: cut.items.map(mediaAnswer), next: cut.next, previous: cut.prev });
			},
		},
		{
			method: 'POST',
			pattern: '/api/v1/medias',
			handler: ({ body }) => {
				const checked = checkMediaBody(addMediaBody, body);
				if ('error' in checked) return checked.error;
				const { data, filename, content_type } = checked.value.media;
				const bytes = Buffer.from(data, 'base64');
				if (bytes.length === 0) return mediaRefusal({ 'media.data': ['holds no bytes'] });
				return ok(mediaAnswer(add({ filename, content_type, byte_size: bytes.length })), 201);
			},
		},
		{
			method: 'DELETE',
			pattern: '/api/v1/medias/:id',
			handler: ({ params }) => {
				// Ids are integers: anything else names nothing, as a wrong prefix does elsewhere.
				const id = /^[1-9]\d{0,15}$/.test(params.id) ? Number(params.id) : undefined;
				if (id === undefined || !items.delete(id)) return notFound();
				return { status: 204 };
			},
		},
	];

	return {
		routes,
		add,
		/** Whether a `media://N` link names an item of this account (for a send's header media). */
		hasMedia(mediaUrl: string): boolean {
			const match = /^media:\/\/([1-9]\d{0,15})$/.exec(mediaUrl);
			return match !== null && items.has(Number(match[1]));
		},
	};
}

export type MediaStore = ReturnType<typeof createMediaStore>;
