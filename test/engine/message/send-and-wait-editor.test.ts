/*
 * Send Template and Wait for Response in the editor: the Template Variables mapper
 * (resourceMapping.getTemplateVariables, in n8n-core's LoadOptionsContext over real HTTP to the
 * stand-in) leaves out the variable that receives the response link, so the panel never asks for a
 * value the run would refuse; and reloads when that variable's name changes.
 */
import { resourceMapping } from '../../../nodes/ChatMessaging/methods';
import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';
import { editorContext, useTemplateService } from '../../helpers/editorContext';

const API_KEY = 'send-and-wait-editor-key-2b7d';
const service = useTemplateService(API_KEY);
const REFUND_APPROVAL = { __rl: true, mode: 'id', value: 'wat_7e6d5c4b3a291807' };

async function mapperFields(parameters: Record<string, unknown>) {
	const answer = await resourceMapping.getTemplateVariables.call(
		editorContext({
			baseUrl: service.url,
			apiKey: API_KEY,
			typeVersion: 2,
			parameters: { template: REFUND_APPROVAL, ...parameters } as never,
		}),
	);
	return answer.fields.map((field) => [field.id, field.required]);
}

test('the mapper leaves out the response link variable, and only for Send Template and Wait for Response', async () => {
	expect(
		await mapperFields({ operation: 'sendAndWait', responseLinkVariable: ' approval_link ' }),
	).toEqual([
		['amount', true],
		['order_number', true],
	]);
	// Not named yet: every variable, as Send Template shows them.
	const all = [
		['amount', true],
		['order_number', true],
		['approval_link', true],
	];
	expect(await mapperFields({ operation: 'sendAndWait', responseLinkVariable: '' })).toEqual(all);
	expect(
		await mapperFields({ operation: 'sendTemplate', responseLinkVariable: 'approval_link' }),
	).toEqual(all);
});

test("the mapper of this operation reloads when Response Link Variable changes, Send Template's does not", () => {
	const mappers = new ChatMessaging().description.properties.filter(
		(property) => property.type === 'resourceMapper',
	);
	const dependsOn = (operation: string) =>
		mappers.find((mapper) =>
			(mapper.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
		)?.typeOptions?.loadOptionsDependsOn;
	expect(dependsOn('sendAndWait')).toEqual([
		'template.value',
		'templateLanguage',
		'responseLinkVariable',
	]);
	expect(dependsOn('sendTemplate')).toEqual(['template.value', 'templateLanguage']);
});
