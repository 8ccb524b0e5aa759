import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asReadFailure } from '../../../shared/transport';
import type { Action, ListOperation, PreparedRequest } from '../operationKinds';
import type { OperationRun } from './operationRun';
import { failureItem, readEveryItem } from './operationRun';
import { readPages, readReturnAllOrLimit } from './pages';
import { outputToldApart } from './serviceAnswers';

/**
 * A list read once per input item, page by page (run/pages.ts), one item after another: lists are
 * read, not sent, so there is nothing to gain by pressing the service. Each record becomes one output
 * item paired with its input item; an input item whose list is empty adds none. Every item is read
 * first, as for the other kinds; with Continue On Fail a failed list becomes that item's error item.
 */
export async function runList<Page, Record>(
	this: IExecuteFunctions,
	operation: ListOperation<Page, Record>,
	run: OperationRun,
): Promise<INodeExecutionData[]> {
	const unread: INodeExecutionData[] = new Array(run.items.length);
	const ready = new Map(
		readEveryItem<{ request: PreparedRequest<undefined>; limit: number | undefined }>(
			run,
			unread,
			operation.description,
			(itemIndex) => ({
				request: operation.prepare.call(this, itemIndex),
				limit: readReturnAllOrLimit.call(this, itemIndex),
			}),
		).map(({ itemIndex, value }) => [itemIndex, value]),
	);

	const readRecords = readPages<Page, Record>;
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < run.items.length; itemIndex++) {
		const read = ready.get(itemIndex);
		if (read === undefined) {
			if (unread[itemIndex] !== undefined) output.push(unread[itemIndex]);
			continue;
		}
		try {
			const { pages } = operation;
			const client = run.requestsBegun.clientFor(run.client, [itemIndex]);
			const records =
				'read' in pages
					? await pages.read.call(this, client, read.request, read.limit)
					: await readRecords.call(this, client, read.request, pages, read.limit);
			// Every record is read before any is output: one the operation refuses fails the item
			// whole, never after part of its list went out.
			const items = records.map((record) => ({
				json: outputToldApart(operation.toOutput(record, read.request)),
				pairedItem: { item: itemIndex },
			}));
			output.push(...items);
		} catch (error) {
			if (!run.continueOnFail) throw run.itemError(error, itemIndex);
			// A list only reads: whatever failed, nothing was changed and the item is safe to run again.
			const failure = asReadFailure(run.itemFailure(error, itemIndex));
			output.push(failureItem(failure, itemIndex));
		}
	}
	return output;
}

/** A list operation as an entry of a resource's table. */
export function asList<Page, Record>(operation: ListOperation<Page, Record>): Action {
	return {
		description: operation.description,
		async run(this: IExecuteFunctions, run: OperationRun) {
			return await runList.call(this, operation, run);
		},
	};
}
