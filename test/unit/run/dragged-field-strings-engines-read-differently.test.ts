/*
 * A dragged field is read from the item only where every n8n expression engine gives the value
 * back as written; otherwise n8n reads it. Found by dragged-fields-equivalence.test.ts (seed
 * 620335739): n8n's quickjs engine gave "" for a field holding "\u0000", the node "\u0000".
 */
import {
	STEP_ASIDE,
	itemReading,
	readFromItem,
} from '../../../nodes/ChatMessaging/actions/run/draggedFields';

const reading = itemReading('={{ $json.a }}')!;

test.each([['\u0000'], ['before\u0000after'], ['\uD800'], ['x\uDC00']])(
	'a field holding %j is left to n8n',
	(value) => {
		expect(readFromItem(reading, { a: value })).toBe(STEP_ASIDE);
	},
);

test('an ordinary string, a surrogate pair among it, is read from the item as written', () => {
	expect(readFromItem(reading, { a: 'Ada 😀 Lovelace' })).toBe('Ada 😀 Lovelace');
});
