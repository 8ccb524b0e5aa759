import { randomBytes } from 'node:crypto';
import { decodedData, LARGEST_MEDIA_BYTES, type AddMediaBody } from '../contract/bodies/media';
import { DAY, iso, type Clock } from './clock';
import { paginate, pagingOf } from './pagination';
import { notFound, ok, outsideContract, type Route, type RouteAnswer } from './routes';

/*
 * `/api/v1/medias`: the account's media library. Ids are integers counted up from the seeded ones.
 * The reference's examples show `media_url` as `media://<id>`, a link nothing can fetch and that a
 * send's `header_media` (public http(s) only) cannot take; the stand-in answers what a CDN would
 * instead: an http(s) link to the file, served by the stand-in itself without the API key
 * (`GET /media/<key>/<file name>`, the key unguessable as a CDN's is). The list is newest first and
 * says `previous` (not `prev`), as the reference's media list does. A removed item is gone: from the
 * list, from a second DELETE (404), from its link (404) and from `hasMedia`. Upload refusals use
 * the shape the reference shows for uploads, `{status: "failed", reason}`.
 */

/** The base of the links when no server answers (the unit tests call the handlers directly). */
export const UNSERVED_BASE_URL = 'http://stand-in.invalid';

export const MEDIA_FILE_PATTERN = '/media/:key/:filename';

/** The largest `POST /api/v1/medias` body: the largest file it takes, as base64 in JSON. */
export const BASE64_UPLOAD_MAX_BODY_BYTES = Math.ceil((LARGEST_MEDIA_BYTES * 4) / 3) + 64 * 1024;

export interface StoredMedia {
	id: number;
	filename: string;
	content_type: string;
	created_at: string;
	byte_size: number;
	/** The unguessable part of the file's link. */
	key: string;
	bytes: Buffer;
	/** Set when the item came through the direct upload. */
	signed_id?: string;
}

export interface NewMedia {
	filename: string;
	content_type: string;
	bytes: Buffer;
	signed_id?: string;
	key?: string;
}

/** The file's public link, as a client of the stand-in at `baseUrl` fetches it. */
export function mediaLink(
	media: Pick<StoredMedia, 'key' | 'filename'>,
	baseUrl = UNSERVED_BASE_URL,
): string {
	return `${baseUrl}${MEDIA_FILE_PATTERN.replace(':key', media.key).replace(':filename', encodeURIComponent(media.filename))}`;
}

/** The upload refusal the reference shows: 422 `{"status":"failed","reason":{field: [messages]}}`. */
export function mediaRefusal(reason: Record<string, string[]>): RouteAnswer {
	return { status: 422, body: { status: 'failed', reason } };
}

/**
 * How `media_url` is written: an http(s) link to the file (the stand-in's default, what a CDN would
 * answer), or `media://<id>` as the reference's examples show it, which no header can take.
 */
export type MediaUrlForm = 'links' | 'media ids';

/** What a client sees of an item (the reference's fields); `signed_id` only for direct uploads. */
export function mediaAnswer(media: StoredMedia, baseUrl?: string, form: MediaUrlForm = 'links') {
	const { id, filename, content_type, created_at, signed_id } = media;
	const media_url = form === 'media ids' ? `media://${id}` : mediaLink(media, baseUrl);
	const shown = { id, filename, content_type, media_url, created_at };
	return signed_id === undefined ? shown : { ...shown, signed_id };
}

export function createMediaStore(now: Clock, urlForm: MediaUrlForm = 'links') {
	const items = new Map<number, StoredMedia>();
	let lastId = 0;

	function add({ key, ...file }: NewMedia, at = now()): StoredMedia {
		const id = ++lastId;
		const media: StoredMedia = {
			id,
			...file,
			key: key ?? randomBytes(14).toString('hex'),
			byte_size: file.bytes.length,
			created_at: iso(at),
		};
		items.set(id, media);
		return media;
	}

	/** The live item a link names, whatever host it was given with. */
	function byLink(mediaUrl: string): StoredMedia | undefined {
		let path: string;
		try {
			path = new URL(mediaUrl).pathname;
		} catch {
			return undefined;
		}
		const [, key, filename] = /^\/media\/([^/]+)\/([^/]+)$/.exec(path) ?? [];
		return [...items.values()].find(
			(media) => media.key === key && encodeURIComponent(media.filename) === filename,
		);
	}

	// Placeholder bytes of the sizes a real library would hold: only their count matters here.
	const seededAt = now();
	add(
		{ filename: 'welcome.jpg', content_type: 'image/jpeg', bytes: Buffer.alloc(48_213) },
		seededAt - 5 * DAY,
	);
	add(
		{ filename: 'price-list.pdf', content_type: 'application/pdf', bytes: Buffer.alloc(182_044) },
		seededAt - 2 * DAY,
	);

	const routes: Route[] = [
		{
			method: 'GET',
			pattern: '/api/v1/medias',
			takesQuery: true,
			handler: ({ query, baseUrl }) => {
				const newestFirst = [...items.values()].sort((a, b) => b.id - a.id);
				const cut = paginate(newestFirst, pagingOf(query));
				const medias = cut.items.map((media) => mediaAnswer(media, baseUrl, urlForm));
				return ok({ count: cut.count, medias, next: cut.next, previous: cut.prev });
			},
		},
		{
			method: 'POST',
			pattern: '/api/v1/medias',
			refusal: mediaRefusal,
			maxBodyBytes: BASE64_UPLOAD_MAX_BODY_BYTES,
			handler: ({ body, baseUrl }) => {
				// docs/openapi.yaml (addMedia) has held the body to its shape already.
				const { media } = body as AddMediaBody;
				const decoded = decodedData(media);
				if ('errors' in decoded) return outsideContract(decoded.errors, mediaRefusal);
				const { filename, content_type } = media;
				const added = add({ filename, content_type, bytes: decoded.bytes });
				return ok(mediaAnswer(added, baseUrl, urlForm), 201);
			},
		},
		{
			// The file itself, as a CDN serves it: no API key, the key in the path is the authority.
			method: 'GET',
			pattern: MEDIA_FILE_PATTERN,
			withoutApiKey: true,
			handler: ({ params }) => {
				const media = [...items.values()].find((item) => item.key === params.key);
				if (media === undefined || media.filename !== params.filename) return notFound();
				return { status: 200, bytes: media.bytes, headers: { 'content-type': media.content_type } };
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
		urlForm,
		/** Whether a `media_url` names a live item of this account (for a send's header media). */
		hasMedia: (mediaUrl: string): boolean => byLink(mediaUrl) !== undefined,
		has: (id: number): boolean => items.has(id),
	};
}

export type MediaStore = ReturnType<typeof createMediaStore>;
