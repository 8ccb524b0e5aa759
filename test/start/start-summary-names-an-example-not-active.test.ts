/*
 * `npm start` keeps a person's edits to an example, and an edited example may no longer activate:
 * that must not stop the start, but the summary printed next must not offer its URL as working.
 * It printed "Sign-up form: …/form/chat-messaging-signup" for a form example whose trigger the
 * person had disabled, without a word: the page answered nothing but n8n's "not found". Two real
 * n8n boots: `npm run test:start`, not part of `npm test`.
 */
import {
	endedAndRemovedAfterAll,
	freeStartPorts,
	n8nPublicApi,
	privateLocalFolder,
	startEnvironment,
	StartRun,
} from '../helpers/startProcess';

jest.setTimeout(15 * 60_000);

const { runs, folders } = endedAndRemovedAfterAll();

const FORM_EXAMPLE = 'Chat Messaging: form sign-up sends a welcome template';
const TRIGGER_EXAMPLE = 'Chat Messaging: branch on message delivery status';

it('an edited example that no longer activates is named in the summary as not active, with why', async () => {
	const ports = await freeStartPorts();
	const localFolder = privateLocalFolder();
	folders.push(localFolder);
	const start = () => {
		const run = new StartRun(
			startEnvironment(ports, localFolder, { CHAT_MESSAGING_SKIP_BUILD: '1' }),
		);
		runs.push(run);
		return run;
	};
	const first = start();
	await first.waitFor(/n8n with Chat Messaging is running|\[start\] stopped/, 10 * 60_000);
	expect(first.output).toMatch(/n8n with Chat Messaging is running/);
	expect(first.output).not.toMatch(/Not active:/);

	// The person turns the form's trigger off in the editor (here through n8n's public API).
	const api = n8nPublicApi(ports.n8n, localFolder);
	const found = (await api('GET', `/workflows?name=${encodeURIComponent(FORM_EXAMPLE)}`))
		.data as any[];
	const form = found.find((workflow) => workflow.name === FORM_EXAMPLE);
	await api('POST', `/workflows/${form.id}/deactivate`);
	await api('PUT', `/workflows/${form.id}`, {
		name: form.name,
		connections: form.connections,
		settings: { executionOrder: 'v1' },
		nodes: form.nodes.map((node: any) =>
			node.type === 'n8n-nodes-base.formTrigger' ? { ...node, disabled: true } : node,
		),
	});
	// And deletes the trigger example's Chat Messaging Trigger: the node its URLs come from.
	const triggerFound = (await api('GET', `/workflows?name=${encodeURIComponent(TRIGGER_EXAMPLE)}`))
		.data as any[];
	const trigger = triggerFound.find((workflow) => workflow.name === TRIGGER_EXAMPLE);
	await api('POST', `/workflows/${trigger.id}/deactivate`);
	await api('PUT', `/workflows/${trigger.id}`, {
		name: trigger.name,
		connections: {},
		settings: { executionOrder: 'v1' },
		nodes: trigger.nodes.filter(
			(node: any) => node.type !== 'n8n-nodes-chat-messaging.chatMessagingTrigger',
		),
	});
	first.ctrlC();
	await first.end(60_000);

	const second = start();
	await second.waitFor(/n8n with Chat Messaging is running|\[start\] stopped/, 10 * 60_000);
	expect(second.output).toMatch(/n8n with Chat Messaging is running/);
	expect(second.output).toContain(`kept your edits to "${FORM_EXAMPLE}"`);
	const summary = second.output.slice(second.output.indexOf('n8n with Chat Messaging is running'));
	expect(summary).toMatch(
		new RegExp(`Not active: +"${FORM_EXAMPLE}" \\(your edited copy\\) did not activate: \\S`),
	);
	// A deleted trigger node stops nothing either: that example is named, with why.
	expect(summary).toMatch(
		new RegExp(
			`Not active: +"${TRIGGER_EXAMPLE}" \\(your edited copy\\) did not activate: it has no n8n-nodes-chat-messaging.chatMessagingTrigger node`,
		),
	);
	// Only those two: the refund example is active as shipped.
	expect(summary.match(/Not active:/g)).toHaveLength(2);
	second.ctrlC();
	await second.end(60_000);
	expect(await second.leftBehindAfter(30_000)).toEqual([]);
});
