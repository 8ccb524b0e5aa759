import {
	type INodeParameters,
	type INodePropertyOptions,
	type TriggerPanelDefinition,
} from 'n8n-workflow';

import { ChatMessagingTrigger } from '../../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node';
import { canvasSubtitle } from '../../helpers/canvasSubtitle';

/*
 * What a new user reads in n8n's editor (issue 17 points 3, 5, 6 and 8). Each test reproduces the
 * rule n8n 2.40's editor applies to the description (read from its bundled source), so the test
 * shows what the editor will show. What only a browser can confirm is listed in the report.
 */

const trigger = new ChatMessagingTrigger();
const { description } = trigger;
const property = (name: string) => description.properties.find((p) => p.name === name)!;
const NODE_TYPE = 'n8n-nodes-chat-messaging.chatMessagingTrigger';

/*
 * The buttons the panel's words must name, on every supported n8n version (issue 28, points 9 and
 * 10): n8n 2.40 labels the trigger's own button "Execute step" and its empty output "Test this
 * trigger" ("Listen for test event" is its core Webhook node's only); n8n 1 says "Test step" and
 * "Listen for test event". Only the trigger runs from its panel: the whole workflow runs from the
 * canvas ("Execute workflow"; n8n 1: "Test workflow").
 */
const BUTTONS = [
	'Execute step',
	'Test this trigger',
	'Test step',
	'Listen for test event',
	'Execute workflow',
	'Test workflow',
];

describe('trigger panel: how to send a test event, and what a refusal looks like (point 3)', () => {
	const panel = description.triggerPanel as TriggerPanelDefinition;

	it('replaces the generic "create an event" texts', () => {
		expect(typeof panel).toBe('object');
		expect(panel.header).toEqual(expect.any(String));
		expect(panel.header).not.toMatch(/create an event/i);
		for (const text of [panel.activationHint, panel.executionsHelp]) {
			expect(typeof text).toBe('object');
			const { active, inactive } = text as { active: string; inactive: string };
			for (const variant of [active, inactive]) {
				for (const button of BUTTONS) expect(variant).toContain(button);
				expect(variant).toMatch(/curl/);
				expect(variant).toMatch(/npm start/);
				expect(variant).not.toMatch(/create an event/i);
			}
		}
	});

	it('says refused calls show nothing in the editor, and what the caller gets', () => {
		const help = panel.executionsHelp as { active: string; inactive: string };
		for (const text of [help.active, help.inactive]) {
			expect(text).toMatch(/refused call shows nothing here/i);
			expect(text).toContain('401');
			expect(text).toContain('"started": false');
			expect(text).toContain('"error"');
		}
		const hint = panel.activationHint as { active: string; inactive: string };
		for (const text of [hint.active, hint.inactive]) {
			expect(text).toMatch(/refused call shows nothing here/i);
		}
	});

	it('the notice on the node says where the Production URL goes and what a refusal looks like, without repeating the left panel', () => {
		const notice = property('setupNotice').displayName;
		expect(notice).toMatch(/refused call shows nothing in the editor/i);
		expect(notice).toContain('"started": false');
		// The buttons and their n8n 1 names are the left panel's (issue 36: a nine-line notice).
		for (const button of BUTTONS) expect(notice).not.toContain(button);
		expect(notice).not.toMatch(/n8n 1/);
	});
});

describe("canvas subtitle in the user's words (point 5)", () => {
	/** What n8n's editor does for the canvas: evaluate `subtitle` against the node, 'internal'. */
	const subtitle = (parameters: INodeParameters) =>
		canvasSubtitle(trigger, { name: 'Chat Messaging Trigger', type: NODE_TYPE }, parameters);

	it('shows the option names, not the internal values', () => {
		expect(subtitle({ events: ['messageDelivery'] })).toBe('Message Delivery Status');
		expect(subtitle({ events: ['order', 'aiAgentExecution'] })).toBe(
			'Order Status, AI Agent Execution',
		);
		expect(subtitle({ events: ['other'] })).toBe('Other / Unknown');
	});

	it('sums up the default choice instead of a line too long for the canvas', () => {
		expect(subtitle({})).toBe('All four service events');
	});

	it('never shows an internal value for any option', () => {
		const options = property('events').options as INodePropertyOptions[];
		for (const option of options) {
			expect(subtitle({ events: [option.value] })).toBe(option.name);
		}
	});

	it('says nothing is chosen rather than showing an empty list', () => {
		expect(subtitle({ events: [] })).toBe('No events chosen');
	});
});

describe('trigger actions in the node list (point 6)', () => {
	/*
	 * n8n 2.40's node creator (`ux` in its workflows store) takes the first property whose
	 * display name is Event, Events or Trigger On, and lists each option as
	 * `option.action ?? "On " + lowerCase(option.name)`, where lowerCase also drops punctuation.
	 */
	const lowerCase = (text: string) =>
		text
			.replace(/([a-z])([A-Z])/g, '$1 $2')
			.split(/[^A-Za-z0-9]+/)
			.filter(Boolean)
			.map((word) => word.toLowerCase())
			.join(' ');
	const actions = () => {
		const events = description.properties.find((p) =>
			['event', 'events', 'trigger on'].includes(p.displayName.toLowerCase()),
		)!;
		return (events.options as INodePropertyOptions[]).map(
			(option) => option.action ?? `On ${lowerCase(option.name)}`,
		);
	};

	it('reads well for every event', () => {
		expect(actions()).toEqual([
			'On AI agent execution update',
			'On flow execution status update',
			'On message delivery status update',
			'On order status update',
			'On any other webhook',
		]);
	});
});

describe('order and wording of the settings (point 8)', () => {
	it('puts the credential picker right after the Authentication field that shows it', () => {
		/*
		 * n8n 2.40 renders the credential picker before the last parameter its displayOptions
		 * name (after it only for a few built-in nodes), unless a parameter of type
		 * `credentials` marks the place, as n8n's Respond to Webhook node does.
		 */
		const names = description.properties.map((p) => p.name);
		const slot = description.properties.find((p) => p.type === 'credentials')!;
		expect(slot).toBeDefined();
		expect(names.indexOf(slot.name)).toBe(names.indexOf('authentication') + 1);
		expect(slot.displayOptions).toEqual(description.credentials![0].displayOptions);
	});

	it('does not send the user to a Production URL "above" that n8n shows collapsed', () => {
		const notice = property('setupNotice').displayName;
		expect(notice).not.toMatch(/above/i);
		expect(notice).toMatch(/Production URL/);
		expect(notice).toMatch(/webhook URLs at the top of this panel/i);
	});
});
