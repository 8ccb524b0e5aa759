/*
 * Items with files, for the engine tests of Media → Upload and Send Template's header media from a
 * file. The harness's Fixed Items node emits JSON only; this source node stores each file through
 * n8n's own `prepareBinaryData`, as a Read File or HTTP Request node does, so the node under test
 * reads it through n8n's binary helpers exactly as in a real workflow.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService } from 'n8n-core';
import type {
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { addTestNodeType, runWorkflow } from './engineHarness';

/** One file of a test item: its bytes, and what the node before would have recorded. */
export interface TestFile {
	bytes: Buffer;
	fileName?: string;
	mimeType?: string;
	/** Drop n8n's recorded size (`bytes`), as binary data made by older nodes or by code lacks it. */
	withoutRecordedSize?: boolean;
}

export interface TestItem {
	json?: Record<string, unknown>;
	binary?: Record<string, TestFile>;
}

/** Test-only source node: emits the items of the module-level queue, their files stored by n8n. */
class BinaryItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Binary Items',
		name: 'binaryItems',
		group: ['input'],
		version: 1,
		description: 'Emits items with files (tests only)',
		defaults: { name: 'Binary Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Key', name: 'key', type: 'string', default: '' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = queued.get(this.getNodeParameter('key', 0) as string) ?? [];
		const output: INodeExecutionData[] = [];
		for (const item of items) {
			const out: INodeExecutionData = {
				json: (item.json ?? {}) as INodeExecutionData['json'],
				pairedItem: { item: 0 },
			};
			for (const [field, file] of Object.entries(item.binary ?? {})) {
				const binary = await this.helpers.prepareBinaryData(
					file.bytes,
					file.fileName,
					file.mimeType,
				);
				// prepareBinaryData guesses a type from the name when none is given; a test of "no
				// type" or "no name" needs exactly what it set.
				if (file.mimeType !== undefined) binary.mimeType = file.mimeType;
				if (file.fileName === undefined) delete binary.fileName;
				if (file.withoutRecordedSize) delete binary.bytes;
				out.binary = { ...out.binary, [field]: binary };
			}
			output.push(out);
		}
		return [output];
	}
}

addTestNodeType('test.binaryItems', new BinaryItems());

/** Items are handed to the node through this map (a node's parameters are JSON, files are not). */
const queued = new Map<string, TestItem[]>();
let runs = 0;

/** Binary Items → one Chat Messaging node; returns the run and the Chat Messaging node's output. */
export async function runWithFiles(options: {
	items: TestItem[];
	parameters: INode['parameters'];
	baseUrl: string;
	apiKey: string;
	continueOnFail?: boolean;
	typeVersion?: number;
}) {
	const key = `run-${++runs}`;
	queued.set(key, options.items);
	try {
		const nodes: INode[] = [
			{
				id: 'files',
				name: 'Files',
				type: 'test.binaryItems',
				typeVersion: 1,
				position: [0, 0],
				parameters: { key },
			},
			{
				id: 'chat',
				name: 'Chat Messaging',
				type: 'n8n-nodes-chat-messaging.chatMessaging',
				typeVersion: options.typeVersion ?? 1,
				position: [200, 0],
				parameters: options.parameters,
				credentials: { chatMessagingApi: { id: '1', name: 'Chat Messaging account' } },
				...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			},
		];
		const result = await runWorkflow({
			nodes,
			connections: {
				Files: { main: [[{ node: 'Chat Messaging', type: NodeConnectionTypes.Main, index: 0 }]] },
			},
			credentials: { chatMessagingApi: { apiKey: options.apiKey, baseUrl: options.baseUrl } },
		});
		return { ...result, output: result.outputOf('Chat Messaging') };
	} finally {
		queued.delete(key);
	}
}

/** Bytes that are not all the same, so a file cut or shifted anywhere would not pass for the original. */
export function testBytes(length: number, seed = 7): Buffer {
	const bytes = Buffer.alloc(length);
	let state = seed;
	for (let index = 0; index < length; index++) {
		state = (state * 1103515245 + 12345) % 2147483648;
		bytes[index] = (state >>> 16) & 0xff;
	}
	return bytes;
}

/** Media → Upload over `items`, reading each item's `data` field; `parameters` add to or replace that. */
export async function runUpload(options: {
	items: TestItem[];
	parameters?: Record<string, unknown>;
	baseUrl: string;
	apiKey: string;
	continueOnFail?: boolean;
}): ReturnType<typeof runWithFiles> {
	return await runWithFiles({
		items: options.items,
		parameters: {
			resource: 'media',
			operation: 'upload',
			binaryPropertyName: 'data',
			...options.parameters,
		} as never,
		baseUrl: options.baseUrl,
		apiKey: options.apiKey,
		continueOnFail: options.continueOnFail ?? false,
	});
}

/**
 * For the tests of one file: n8n keeps binary data on disk ('filesystem' mode) in a temporary folder,
 * removed afterwards. What n8n does for a user who runs it with N8N_DEFAULT_BINARY_DATA_MODE=filesystem.
 */
export function useFilesystemBinaryData(prefix: string): void {
	let storage: string;
	beforeAll(async () => {
		storage = await mkdtemp(join(tmpdir(), prefix));
		const config = Container.get(BinaryDataConfig);
		config.mode = 'filesystem';
		config.localStoragePath = storage;
		await Container.get(BinaryDataService).init();
	});
	afterAll(async () => {
		await rm(storage, { recursive: true, force: true });
	});
}
