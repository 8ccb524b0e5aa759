/*
 * The credential test as n8n runs it, for engine tests. n8n's CredentialsTester (packages/cli,
 * services/credentials-tester.service, getCredentialTestFunction) takes the credential type's own
 * `test` when it has one; otherwise it looks through the nodes that use the credential for a
 * `testedBy` naming a function in the node's `methods.credentialTest`, and calls that function with
 * n8n-core's CredentialTestContext (its real request helper, real HTTP) and the decrypted
 * credential. The lookup below is the tester's; the context and the helper are n8n's own.
 */
import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	INodeCredentialTestResult,
	INodeType,
} from 'n8n-workflow';

import { ChatMessagingApi } from '../../credentials/ChatMessagingApi.credentials';
import { ChatMessaging } from '../../nodes/ChatMessaging/ChatMessaging.node';
import { ChatMessagingTrigger } from '../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node';

const credentialType = new ChatMessagingApi();
/** Every node of the package: the tester looks at each node that lists the credential. */
const packageNodes: INodeType[] = [new ChatMessaging(), new ChatMessagingTrigger()];

/** The function n8n's tester would call for this credential type, as its lookup finds it. */
export function credentialTestFunction(typeName = credentialType.name): ICredentialTestFunction {
	if ('test' in credentialType && credentialType.test !== undefined) {
		throw new Error('The credential has a declarative test: n8n would run it instead');
	}
	for (const node of packageNodes) {
		for (const { name, testedBy } of node.description.credentials ?? []) {
			if (name !== typeName || typeof testedBy !== 'string') continue;
			const test = node.methods?.credentialTest?.[testedBy];
			if (test === undefined) throw new Error(`${testedBy} is not in the node's credentialTest`);
			return test;
		}
	}
	throw new Error(`No node tests ${typeName}: n8n would say "No testing function found"`);
}

export async function testCredential(
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const test = credentialTestFunction();
	return await test.call(new CredentialTestContext(), {
		id: 'tested',
		name: 'Tested',
		type: credentialType.name,
		data,
	});
}
