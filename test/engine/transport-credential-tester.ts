/*
 * The credential test as n8n runs it, for engine tests. n8n's CredentialsTester (packages/cli,
 * services/credentials-tester.service) puts the credential's `test.request` on a stand-in node as
 * its routing, runs it with n8n-core's RoutingNode (real request helper, real HTTP, the credential's
 * own authenticate), then reads `test.rules`: `responseCode` rules for an answer the helper refused
 * as an error, `responseSuccessBody` rules for one it let through, and otherwise shows the error's
 * socket code (ECONNREFUSED…) or message. The request part is n8n's own code here; the verdict below
 * mirrors the tester's, which lives in the n8n server package and needs its whole service container.
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { ChatMessagingApi } from '../../credentials/ChatMessagingApi.credentials';
import { StoredCredentials } from './harness';

const credentialType = new ChatMessagingApi();

/** The value at a dotted path, as lodash's get (which the tester uses) reads a rule's `key`. */
function valueAt(data: unknown, key: string): unknown {
	return key
		.split('.')
		.reduce<unknown>(
			(value, part) =>
				value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined,
			data,
		);
}

export async function testCredential(
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const test = credentialType.test;
	const nodeType: INodeType = {
		description: {
			displayName: 'Credential test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: [],
			outputs: [],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.request },
					default: '',
				},
			],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => NodeHelpers.getVersionedNodeType(nodeType),
		getKnownTypes: () => ({}),
	};
	const credentials: ICredentialsDecrypted = {
		id: 'tested',
		name: 'Tested',
		type: credentialType.name,
		data,
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'credentialTest',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType.name]: { id: credentials.id, name: credentials.name } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = {
		credentialsHelper: new StoredCredentials({ [credentialType.name]: data }),
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		{ resultData: { runData: {} } } as unknown as IRunExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await new RoutingNode(context, nodeType, credentials).runNode();
	} catch (caught) {
		const error = caught as {
			message: string;
			cause?: { code?: string; response?: { status: number; statusText?: string } };
		};
		if (error.cause?.response) {
			const { status, statusText } = error.cause.response;
			for (const rule of test.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status)
					return { status: 'Error', message: rule.properties.message };
			}
			if (status < 199 || status > 299)
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}
	for (const rule of test.rules ?? []) {
		if (
			rule.type === 'responseSuccessBody' &&
			valueAt(response?.[0]?.[0]?.json, rule.properties.key) === rule.properties.value
		) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
