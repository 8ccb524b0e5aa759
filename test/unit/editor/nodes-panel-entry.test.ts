/*
 * What n8n's nodes panel shows when someone searches "chat messaging" (issue 28, point 6). The
 * editor lists a node and the trigger whose name is the node's plus "Trigger" as one entry, and
 * describes that entry with the trigger's description (n8n's editor-ui, useActionsGeneration:
 * `app.description = trigger.description; // default to trigger description`). So the trigger's
 * description is the package's line in the panel and must say what both nodes do.
 */
import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';
import { ChatMessagingTrigger } from '../../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node';

const action = new ChatMessaging().description;
const trigger = new ChatMessagingTrigger().description;

/** The one entry n8n makes of the two nodes, described as the editor describes it. */
function panelEntry() {
	const merged = trigger.name.replace('Trigger', '') === action.name;
	return { merged, displayName: action.displayName, description: trigger.description };
}

test('the action node and the trigger are one entry in the nodes panel', () => {
	expect(panelEntry()).toMatchObject({ merged: true, displayName: 'Chat Messaging' });
});

test("the entry's description says what the action node does, not only the trigger", () => {
	const { description } = panelEntry();
	expect(description).toMatch(/send/i);
	expect(description).toMatch(/template message/i);
	expect(description).toMatch(/contacts/i);
	// …and what the trigger does.
	expect(description).toMatch(/start/i);
	expect(description).toMatch(/delivery/i);
});
