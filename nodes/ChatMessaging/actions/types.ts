import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { PromisedAnswer } from '../../shared/schemas';
import type { ServiceAnswer } from '../../shared/transport';

export type ChatMessagingResource = 'message' | 'aiAgent' | 'conversation' | 'contact';

/** Every resource → operation pair the node offers; the router is checked against it. */
export interface ChatMessagingOperations {
	message: 'sendTemplate';
	aiAgent: 'connectContact';
	conversation: 'assignAgent';
	contact: 'createMany';
}

export interface PreparedRequest {
	path: string;
	/** Already checked against the wire schema. */
	body: unknown;
}

/** An operation that makes one request per input item. */
export interface PerItemOperation {
	description: INodeProperties[];
	/** Reads and checks one item's parameters; throws InvalidParameter before anything is sent. */
	prepare(this: IExecuteFunctions, itemIndex: number): PreparedRequest;
	/** Turns the service's answer into the item the user maps in later nodes. */
	toOutput(answer: ServiceAnswer, request: PreparedRequest): IDataObject;
	/** The success answer the spec promises; any other 2xx is reported as "may have been sent". */
	answer?: PromisedAnswer;
}
