/*
 * n8n's processed-data store for engine tests. n8n-core's DataDeduplicationService is a singleton
 * that the n8n app initialises with its database-backed deduplicator; the engine alone has none.
 * This one keeps the same data in memory and behaves as n8n's does (packages/cli deduplication-
 * helper, mode "entries"): one list per workflow and scope, read, changed and written back whole,
 * with an await between read and write as a database round trip has, oldest entries dropped first.
 */
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

/** One call to the store, as a cut point sees it: what it adds (a check records what it finds new) or removes. */
export interface StoreCall {
	kind: 'add' | 'remove';
	items: string[];
	/** The call's number since the store was last cleared, from 1. */
	number: number;
}

export class MemoryProcessedData implements IDataDeduplicator {
	private readonly lists = new Map<string, string[]>();
	/**
	 * A worker killed at a moment of the run: from the first call this says yes to, that call and
	 * every later one throws and keeps nothing, as the dead worker's writes never reach the database.
	 */
	stopsAt: ((call: StoreCall) => boolean) | undefined;
	/** Called once, at the cut: a test stops the run there (its execution cancelled), as the kill does. */
	onStop: (() => void) | undefined;
	private stopped = false;
	/** Makes the next calls throw, as a database that cannot be reached. */
	failing: 'never' | 'check' | 'record' = 'never';
	/**
	 * From the first call this says yes to, the store answers as n8n's does for a record that is not
	 * a list of entries (a damaged row): without an error, a check finds no item new and none
	 * processed and keeps nothing, and a removal removes nothing.
	 */
	damagedFrom: ((call: StoreCall) => boolean) | undefined;
	private damaged = false;
	calls = 0;
	/** A database round trip as long as a request's, so writes of one run overlap unless serialised. */
	roundTripMs = 0;

	private place(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
		if (scope === 'node' && !contextData.node) throw new Error('scope node needs a node');
		return `${contextData.workflow.id}|${scope === 'node' ? contextData.node!.id : ''}`;
	}

	private async read(place: string): Promise<string[] | undefined> {
		const list = this.lists.get(place);
		await new Promise((resolve) =>
			this.roundTripMs > 0 ? setTimeout(resolve, this.roundTripMs) : resolve(undefined),
		);
		return list === undefined ? undefined : [...list];
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		this.calls++;
		this.stopIfDue('add', items);
		if (options.mode !== 'entries') throw new Error('only mode entries is kept here');
		if (this.isDamaged('add', items)) return { new: [], processed: [] };
		// The check records nothing when it fails; a write that fails records nothing either.
		if (this.failing === 'check' || (this.failing === 'record' && options.maxEntries))
			throw new Error('the database cannot be reached');
		const place = this.place(scope, contextData);
		const list = (await this.read(place)) ?? [];
		const seen = new Set(list);
		const result: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const value = String(item);
			if (seen.has(value)) result.processed.push(item);
			else {
				result.new.push(item);
				list.push(value);
			}
		}
		if (options.maxEntries) list.splice(0, Math.max(0, list.length - options.maxEntries));
		this.lists.set(place, list);
		return result;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.calls++;
		this.stopIfDue('remove', items);
		if (this.isDamaged('remove', items)) return;
		const place = this.place(scope, contextData);
		const list = await this.read(place);
		if (list === undefined) return;
		for (const item of items) {
			const index = list.indexOf(String(item));
			if (index !== -1) list.splice(index, 1);
		}
		this.lists.set(place, list);
	}

	private stopIfDue(kind: StoreCall['kind'], items: DeduplicationItemTypes[]): void {
		if (!this.stopped && this.stopsAt?.({ kind, items: items.map(String), number: this.calls })) {
			this.stopped = true;
			this.onStop?.();
		}
		if (this.stopped) throw new Error('the worker was killed: n8n never wrote this');
	}

	private isDamaged(kind: StoreCall['kind'], items: DeduplicationItemTypes[]): boolean {
		if (!this.damaged && this.damagedFrom?.({ kind, items: items.map(String), number: this.calls }))
			this.damaged = true;
		return this.damaged;
	}

	/** A new worker takes over after the cut: what was written before it is all there is. */
	restart(): void {
		this.stopped = false;
		this.stopsAt = undefined;
		this.onStop = undefined;
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.lists.delete(this.place(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<number> {
		return this.lists.get(this.place(scope, contextData))?.length ?? 0;
	}

	/**
	 * The keys recorded for the engine tests' workflow (engineHarness.ts gives it the id engine-test): one
	 * node's, or without a node every key of the workflow, whether kept per workflow or per node.
	 */
	keys(nodeId?: string): string[] {
		if (nodeId !== undefined) return [...(this.lists.get(`engine-test|${nodeId}`) ?? [])];
		return [...this.lists.entries()]
			.filter(([place]) => place.startsWith('engine-test|'))
			.flatMap(([, keys]) => keys);
	}

	clear(): void {
		this.lists.clear();
		this.failing = 'never';
		this.calls = 0;
		this.roundTripMs = 0;
		this.damagedFrom = undefined;
		this.damaged = false;
		this.restart();
	}
}

let store: MemoryProcessedData | undefined;

/** The store the engine's deduplication helpers use in this test file; emptied before each test. */
export function useProcessedDataStore(): MemoryProcessedData {
	if (store === undefined) {
		store = new MemoryProcessedData();
		// init refuses a second call; jest loads n8n-core afresh for each test file.
		void DataDeduplicationService.init(store);
	}
	beforeEach(() => store!.clear());
	return store;
}
