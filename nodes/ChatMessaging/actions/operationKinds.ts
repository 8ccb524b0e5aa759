import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { PromisedAnswer } from '../../shared/schemas';
import type {
	MayHaveActed,
	ServiceAnswer,
	ServiceClient,
	ServiceRequest,
} from '../../shared/transport';
import { A_CHANGE, A_MESSAGE } from '../../shared/transport';
import type { OperationRun } from './run/operationRun';
import type { PageReading } from './run/pages';

/*
 * The three kinds of operation. An operation file declares what it sends and what it outputs; the
 * runner of its kind (run/perItem.ts, run/batch.ts, run/list.ts) owns the reading of every item
 * first, the parallel requests, the stop at the first failure and its report. Pick the kind, fill
 * the interface, and add one line to the resource's table: nothing else learns the operation's name.
 */

/** A request as an operation describes it: its body typed, already checked against the wire schema. */
export type PreparedRequest<Body> = ServiceRequest & { body: Body };

/**
 * What an operation does at the service, which decides the words its failures can use. A send or a
 * change that reached the service may have been carried out ("may have been sent"); a read changes
 * nothing, so whatever broke, it is "not sent" with nothing changed and safe to run again. A list
 * only reads; a batch sends or changes; a per-item operation reads when its request is a GET.
 */
export function readsOnly(request: ServiceRequest): boolean {
	return request.method === 'GET';
}

/** What an operation's request may have done when the service may have acted on it, in words. */
export function mayHaveActed(operation: { sendsAMessage?: boolean }): MayHaveActed {
	return operation.sendsAMessage === true ? A_MESSAGE : A_CHANGE;
}

/** One request per input item (Send Template, Assign Agent…). */
export interface PerItemOperation<Body> {
	description: INodeProperties[];
	/** Reads and checks one item's parameters; throws InvalidParameter before anything is sent. */
	prepare(this: IExecuteFunctions, itemIndex: number): PreparedRequest<Body>;
	/** The item the user maps in later nodes; the runner adds the ids the answer carries. */
	toOutput(answer: ServiceAnswer, request: PreparedRequest<Body>): IDataObject;
	/** The success answer the service promises; any other 2xx is reported as "may have been sent". */
	answer?: PromisedAnswer;
	/**
	 * What the request is an instruction about: requests about the same subject are carried out in
	 * input order (run/lastInstructionWins.ts), so the last one wins. Without it, a request that
	 * changes something at a path naming one object (PATCH /api/v1/contacts/+1…) is about that object.
	 */
	subject?(request: PreparedRequest<Body>): string | undefined;
	/** Whether the operation offers Skip Items Already Sent (fields/skipItemsAlreadySent.ts). */
	skipsItemsAlreadySent?: boolean;
	/**
	 * Whether its request sends a message to a contact: a failure after which the service may have
	 * acted then speaks of that message; otherwise of a change that may have been made.
	 */
	sendsAMessage?: boolean;
	/**
	 * Only for an item that takes more than the one request `prepare` describes (Media → Upload reads
	 * the file's bytes and sends them in one or three requests; a send whose header media is a file
	 * uploads it first): makes the item's requests and returns the answer `toOutput` is given.
	 * Throws ServiceRequestFailed saying what was done and what was not. Without it the runner sends
	 * the prepared request as it is.
	 */
	send?(
		this: IExecuteFunctions,
		client: ServiceClient,
		request: PreparedRequest<Body>,
		itemIndex: number,
	): Promise<ServiceAnswer>;
}

/** Where an entry's batch stood in the run: shown on every entry's output. */
export interface BatchInfo {
	/** Counting from 1, in input order. */
	number: number;
	size: number;
}

/**
 * Many items in one request (Create Many; bulk upserts, preferences for many numbers, a broadcast's
 * contacts). Each input item becomes one entry; entries go in batches; every input item gets its own
 * output item, with its batch's status and the service's answer under `batchResponse`.
 */
export interface BatchOperation<Entry, Body> {
	description: INodeProperties[];
	/** The Batch Size option's fallback and ceiling (the option itself is in the description). */
	batchSize: { default: number; max: number };
	/** The Batches in Parallel option's fallback and ceiling. */
	batchesInParallel: { default: number; max: number };
	/**
	 * Called once per run: returns the reader of one item. Settings that are the same for every item
	 * (read from item 0) are read here, not per item. The reader throws InvalidParameter.
	 */
	entryReader(this: IExecuteFunctions): (itemIndex: number) => Entry;
	/**
	 * Entries with different keys never share a batch (e.g. a communication preference given per
	 * item, when the service takes one preference per request). Without it, all may.
	 */
	batchKey?(entry: Entry): string;
	/**
	 * What the entry is an instruction about (a contact's number). Entries about the same subject are
	 * carried out in input order, whatever the batching and parallelism, so the last one wins.
	 */
	subjectOf?(entry: Entry): string;
	/** The request for one batch, its body checked against the wire schema. */
	request(entries: Entry[]): PreparedRequest<Body>;
	answer?: PromisedAnswer;
	/**
	 * What the answer must say about the entries it was sent for, beyond its shape: each contact
	 * answered, the preference set the one sent. A reason makes the whole batch "may have been
	 * sent", so no item passes on an answer that says nothing of it (or speaks of another).
	 */
	checkBatch?(answer: ServiceAnswer, entries: Entry[]): string | undefined;
	/** What each entry's output item says about the entry itself, on success and on failure alike. */
	toOutput(entry: Entry): IDataObject;
	/** Whether the operation offers Skip Items Already Sent; keys are recorded once the batch is accepted. */
	skipsItemsAlreadySent?: boolean;
	/** As PerItemOperation's: whether a batch's request sends messages to its contacts. */
	sendsAMessage?: boolean;
	/** Output fields only a successful entry gets, before the batch's; `{ created: true }` and the like. */
	succeeded: IDataObject;
}

/** A list read its own way: every record (or the first `limit`), each once. */
export interface OwnListReading<Record> {
	read(
		this: IExecuteFunctions,
		client: ServiceClient,
		request: PreparedRequest<undefined>,
		limit: number | undefined,
	): Promise<Record[]>;
}

/**
 * A list read with Return All / Limit, page by page (run/pages.ts): one output item per record,
 * paired with the input item it was read for.
 */
export interface ListOperation<Page, Record> {
	description: INodeProperties[];
	/** The first page's request without `page` or `per`: the pagination helper adds them. */
	prepare(this: IExecuteFunctions, itemIndex: number): PreparedRequest<undefined>;
	/**
	 * How the endpoint pages: `per`, the page's schema (pageAnswer in schemas/paging.ts), its records;
	 * or a reading of its own, for a list whose paging the sources leave open (the template list).
	 */
	pages: PageReading<Page, Record> | OwnListReading<Record>;
	toOutput(record: Record, request: PreparedRequest<undefined>): IDataObject;
}

/** An operation as the router sees it, whatever its kind: its properties and its run. */
export interface Action {
	description: INodeProperties[];
	run(this: IExecuteFunctions, run: OperationRun): Promise<INodeExecutionData[]>;
}
