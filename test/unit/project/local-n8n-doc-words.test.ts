/*
 * docs/local-n8n.md quotes what a person sees while trying the examples locally: the refund
 * example's buttons and the install's progress line. Each quote is read here from where the person
 * sees it (the example file, the install script), so a relabelled button or a changed line breaks
 * this test before the page misleads anyone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../../scripts/n8n/install';

const page = readFileSync(join(PROJECT_ROOT, 'docs', 'local-n8n.md'), 'utf8').replace(/\s+/g, ' ');

test('the inbox section names the buttons the refund example shows the manager', () => {
	const example = JSON.parse(
		readFileSync(join(PROJECT_ROOT, 'examples', 'refund-approval-send-and-wait.json'), 'utf8'),
	) as { nodes: Array<{ type: string; parameters: Record<string, any> }> };
	const ask = example.nodes.find((node) => node.parameters.operation === 'sendAndWait')!;
	const { approveLabel, disapproveLabel } = ask.parameters.approvalOptions.values as Record<
		string,
		string
	>;
	const inbox = page.slice(page.indexOf("## The contacts' inbox"));
	expect(inbox).toContain(`press **${approveLabel}** or **${disapproveLabel}**`);
	expect(inbox).not.toMatch(/press Approve or Disapprove/);
});

test("the install's progress line is quoted as the script prints it", () => {
	const script = readFileSync(join(PROJECT_ROOT, 'scripts', 'install-n8n.sh'), 'utf8');
	const said = /say "(installing n8n \$N8N_VERSION into \$N8N_HOME [^"]*)"/.exec(script);
	expect(said).not.toBeNull();
	const quoted = said![1]
		.replace('$N8N_VERSION', '2.40.7')
		.replace('$N8N_HOME', '~/.cache/n8n-nodes-chat-messaging/n8n-2.40.7');
	expect(page).toContain(`[install-n8n] ${quoted}`);
});
