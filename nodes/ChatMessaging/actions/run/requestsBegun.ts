import type { DeliveryOutcome, ServiceClient } from '../../../shared/transport';

/*
 * Which input items a request to the service began for in this run: the fact "not sent" and "may
 * have been sent" are told from. The transport says when a request begins (ServiceClient
 * onRequestBegan, as it is handed to n8n's request helper); a runner gives each item's requests a
 * client that notes its item (a batch's, every item of the batch). A request made for the run as a
 * whole (reading the templates the items name) sends no item and notes none.
 *
 * So whatever failed, whenever a parameter was read, an item no request began for was not sent,
 * and the words of the error play no part in it.
 */
export class RequestsBegun {
	private readonly began = new Set<number>();

	/** The client for the requests made on behalf of these input items. */
	clientFor(client: ServiceClient, itemIndexes: readonly number[]): ServiceClient {
		return {
			...client,
			onRequestBegan: () => {
				for (const itemIndex of itemIndexes) this.began.add(itemIndex);
				client.onRequestBegan?.();
			},
		};
	}

	/** Whether a request to the service began for the item in this run. */
	beganFor(itemIndex: number): boolean {
		return this.began.has(itemIndex);
	}

	/**
	 * What an item whose run failed in an unforeseen way may have become: nothing left for it, or a
	 * request began whose answer the node never took as accepted.
	 */
	outcomeOf(itemIndex: number): DeliveryOutcome {
		return this.began.has(itemIndex) ? 'may have been sent' : 'not sent';
	}
}
