import { InvalidParameter, describeType } from './invalidParameter';
import { requiredText } from './text';

/*
 * Header media. The service downloads the file and sends it to the contact, so only a public
 * http(s) link is ever sent: never javascript:, data:, file: or anything a client could run or
 * read locally. Both ways of giving it (the Header Media fields, or the template variable
 * header_media) go through these two readers, so they are checked alike and named alike.
 */
export const HEADER_MEDIA_URL = 'Header Media URL';
export const HEADER_MEDIA_FILE_NAME = 'File Name';

/** `where` tells the user where the value came from when it was not the field itself. */
export function readHeaderMediaUrl(value: unknown, where = ''): string {
	// The media list answers `media://<id>` (the reference's form): a reference inside the account,
	// not a link the service can download, so it is named as such rather than as a bad URL.
	if (typeof value === 'string' && /^\s*media:\/\//i.test(value)) {
		throw new InvalidParameter(
			HEADER_MEDIA_URL,
			`${JSON.stringify(value.trim())}${where} is a media library reference, which a template header cannot take: give the file's public http(s) link, or choose Header Media Source: Binary File to upload the file with the send`,
		);
	}
	return readHttpUrl(value, HEADER_MEDIA_URL, where);
}

/**
 * A public http(s) link, exactly as written (a header's media, a template's URL button): whoever
 * opens it, the service or every recipient, must reach that host and nothing a client would run.
 */
export function readHttpUrl(value: unknown, parameter: string, where = ''): string {
	const link = requiredText(value, parameter);
	const refuse = () =>
		new InvalidParameter(
			parameter,
			`${JSON.stringify(link)}${where} must be a public http(s) URL: http:// or https://, then the host`,
		);
	// What the user wrote is what is sent, so it must already be a whole URL: the WHATWG parser
	// would otherwise quietly repair "https:example.com" or "https:///x" into another address.
	if (/[\s\p{C}\\]/u.test(link) || !/^https?:\/\/[^/?#@]/i.test(link)) throw refuse();
	let url: URL;
	try {
		url = new URL(link);
	} catch {
		throw refuse();
	}
	if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
		throw refuse();
	return link;
}

/** The name a document header shows; one line of text. */
export function readHeaderMediaFileName(value: unknown, where = ''): string | undefined {
	if (value !== undefined && typeof value !== 'string') {
		throw new InvalidParameter(
			HEADER_MEDIA_FILE_NAME,
			`${where ? `${where.trim()} ` : ''}must be text, not ${describeType(value)}`,
		);
	}
	if (value === undefined) return undefined;
	const filename = value.trim();
	if (filename === '' || /\p{C}/u.test(filename)) {
		throw new InvalidParameter(
			HEADER_MEDIA_FILE_NAME,
			`${JSON.stringify(value)}${where} must be a file name on one line, such as invoice-1042.pdf`,
		);
	}
	return filename;
}
