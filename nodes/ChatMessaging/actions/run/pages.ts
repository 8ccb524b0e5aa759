import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { z } from 'zod';

import type {
	ServiceAnswer,
	ServiceClient,
	ServiceFailure,
	ServiceRequest,
} from '../../../shared/transport';
import { ServiceRequestFailed, callService } from '../../../shared/transport';
import { answerShapeProblem } from '../../../shared/schemas';
import { InvalidParameter } from '../../../shared/validation';
import { failureSign } from './serviceAnswers';

/*
 * Page-based reading of the service's lists, shared by every list operation. The list endpoints take
 * `page` (from 1) and, most of them, `per` (up to 1,000), and answer `{count, next, prev, <records>}`
 * (docs/service-contract.md, "The operations named without detail"; nodes/shared/schemas/paging.ts).
 *
 * Adding a list operation (a ListOperation, run by run/list.ts, which calls readPages once per input
 * item):
 *   description  [...yourFilters, ...returnAllOrLimitFields(displayOptions)]
 *   prepare      { method: 'GET', path: '/api/v1/conversations', qs: onlyTheFiltersTheUserSet, body: undefined }
 *                (never `page` or `per`: readPages owns them)
 *   pages        { perPage: MAX_PER_PAGE, schema: pageAnswer('conversations', conversation),
 *                  records: (page) => page.conversations }
 *                perPage undefined for an endpoint that takes `page` alone (conversations, per the
 *                contract: `per` is not in its reference)
 *   toOutput     (record) => record, or the fields the user maps
 *   resource     listConversations: asList(listConversations)
 *
 * When the last page is reached: a page with no records; `next` given as null or ""; without `next`,
 * once `count` records were read or a page came back shorter than `per`. Return All off stops at
 * Limit and asks for no more than Limit per page.
 */

/** How one endpoint pages: what a ListOperation declares under `pages`. */
export interface PageReading<Page, Record> {
	/** Records per page sent as `per`, or undefined when the endpoint pages by `page` alone. */
	perPage?: number;
	/** One page's answer; an answer it refuses fails the item, with the service's answer quoted. */
	schema: z.ZodType<Page>;
	records(page: Page): Record[];
}

/** A service that keeps naming a next page is stopped here rather than read forever. */
export const MAX_PAGES = 10_000;

/** `next` and `count` of a page, when it is an object that has them. */
function pageLinks(page: unknown): { next?: unknown; count?: number } {
	if (page === null || typeof page !== 'object' || Array.isArray(page)) return {};
	const { next, count } = page as IDataObject;
	return { next, count: typeof count === 'number' ? count : undefined };
}

function pageFields(body: unknown): Record<string, unknown> {
	return body !== null && typeof body === 'object' && !Array.isArray(body)
		? (body as Record<string, unknown>)
		: {};
}

function notAPage(answer: ServiceAnswer, page: number, problem: string): ServiceFailure {
	return {
		outcome: 'not sent',
		statusCode: answer.statusCode,
		serviceBody: answer.body,
		retries: answer.retries,
		message: `The service answered page ${page} of the list with something that is not a page of records (${problem})`,
		description:
			'Nothing was changed: reading a list changes nothing on the service. Check the Base URL of the credential, or run again later.',
	};
}

/*
 * A service that ignores `page` answers page 1 again and again, each one naming a next page: Return
 * All would gather the same records until MAX_PAGES. Two pages of the same records stop it:
 * any two, not only neighbours, as a service whose pages wrap around (1, 2, 1, 2…) would otherwise
 * be read 10,000 times over. Unless the list's `count` grew since the earlier one: then a page's
 * worth of records arrived at the top between the two reads and pushed the page read before onto
 * this one. That is the list moving, not the page ignored; its records were output already.
 */
function pageRepeated(answer: ServiceAnswer, page: number, samePage: number): ServiceFailure {
	return {
		outcome: 'not sent',
		statusCode: answer.statusCode,
		retries: answer.retries,
		message: `The service answered page ${page} of the list with the same records as page ${samePage}, so it seems to ignore the page asked for`,
		description:
			'Nothing was changed: reading a list changes nothing on the service. No records were output, rather than the same ones twice. Turn off Return All and set a Limit no larger than one page, or narrow the list with its filters.',
	};
}

function tooManyPages(answer: ServiceAnswer): ServiceFailure {
	return {
		outcome: 'not sent',
		statusCode: answer.statusCode,
		retries: answer.retries,
		message: `The service still named a next page after ${MAX_PAGES} pages`,
		description:
			'Nothing was changed. Turn off Return All and set a Limit, or narrow the list with its filters.',
	};
}

/** A record's `id`, when it has one: what makes two records of a list the same record. */
function recordId(record: unknown): string | undefined {
	if (record === null || typeof record !== 'object' || Array.isArray(record)) return undefined;
	const { id } = record as IDataObject;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * What makes two pages the same page: the ids of their records, in any order, when every record has
 * one. A service that ignores `page` may hand page 1 back in another order (ties in its sort) or
 * with a field moved on (`updated_at`, a status); it is still page 1. Records without ids are
 * compared whole.
 */
function pageKey(pageRecords: unknown[]): string {
	const ids = pageRecords.map(recordId);
	if (ids.every((id): id is string => id !== undefined)) return JSON.stringify(ids.sort());
	return JSON.stringify(pageRecords);
}

/**
 * Reads `request` page by page and returns the records in the service's order: all of them, or the
 * first `limit`. Throws ServiceRequestFailed (from the transport, or for an answer that is no page).
 *
 * Pages are cut from the list as it is when each is asked for: a record added before the part
 * already read pushes the rest down, so the next page starts with a record already read. Each
 * record is output once, by its id (records without one are kept as they come). A record removed
 * meanwhile pulls the rest up instead, and the one that moves onto a page already read is missed:
 * no page-based read can see it (docs/failure-semantics.md).
 */
export async function readPages<Page, Record>(
	this: IExecuteFunctions,
	client: ServiceClient,
	request: ServiceRequest,
	reading: PageReading<Page, Record>,
	limit: number | undefined,
): Promise<Record[]> {
	const per =
		reading.perPage === undefined
			? undefined
			: limit === undefined
				? reading.perPage
				: Math.min(limit, reading.perPage);
	const records: Record[] = [];
	const idsRead = new Set<string>();
	/** Every page read so far, by pageKey, with its number and the list's count then. */
	const pagesRead = new Map<string, { page: number; count: number | undefined }>();
	for (let page = 1; ; page++) {
		const qs: IDataObject = { ...request.qs, page };
		if (per !== undefined) qs.per = per;
		const answer = await callService.call(this, client, { ...request, qs });
		const parsed = reading.schema.safeParse(answer.body);
		// A page that says the read failed is not the list, however its records look.
		const sign =
			answer.bodyIsJson && parsed.success ? failureSign(pageFields(answer.body)) : undefined;
		if (sign !== undefined) throw new ServiceRequestFailed(notAPage(answer, page, sign));
		if (!answer.bodyIsJson || !parsed.success) {
			throw new ServiceRequestFailed(notAPage(answer, page, answerShapeProblem(parsed)));
		}
		const pageRecords = reading.records(parsed.data);
		const { next, count } = pageLinks(parsed.data);
		const thisPage = pageRecords.length ? pageKey(pageRecords) : undefined;
		if (thisPage !== undefined) {
			const samePage = pagesRead.get(thisPage);
			const listGrew =
				samePage?.count !== undefined && count !== undefined && count > samePage.count;
			if (samePage !== undefined && !listGrew)
				throw new ServiceRequestFailed(pageRepeated(answer, page, samePage.page));
			pagesRead.set(thisPage, { page, count });
		}
		const unread = pageRecords.filter((record) => {
			const id = recordId(record);
			if (id === undefined) return true;
			if (idsRead.has(id)) return false;
			idsRead.add(id);
			return true;
		});
		records.push(...(limit === undefined ? unread : unread.slice(0, limit - records.length)));

		const lastPage =
			(limit !== undefined && records.length >= limit) ||
			pageRecords.length === 0 ||
			next === null ||
			next === '' ||
			(next === undefined &&
				((count !== undefined && records.length >= count) ||
					(per !== undefined && pageRecords.length < per)));
		if (lastPage) return records;
		if (page >= MAX_PAGES) throw new ServiceRequestFailed(tooManyPages(answer));
	}
}

/** Return All and Limit, worded as n8n's own nodes word them. */
export function returnAllOrLimitFields(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			displayOptions,
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			displayOptions: { show: { ...displayOptions.show, returnAll: [false] } },
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 50,
			description: 'Max number of results to return',
		},
	];
}

/** One item's Return All / Limit: undefined means all. */
export function readReturnAllOrLimit(
	this: IExecuteFunctions,
	itemIndex: number,
): number | undefined {
	if (this.getNodeParameter('returnAll', itemIndex, false) === true) return undefined;
	const limit = this.getNodeParameter('limit', itemIndex, 50);
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw new InvalidParameter(
			'Limit',
			`must be a whole number of at least 1, not ${JSON.stringify(limit)}`,
		);
	}
	return limit;
}
