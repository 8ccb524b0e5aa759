import type { IDataObject } from 'n8n-workflow';

import type { OrderItem } from '../../../shared/schemas/orders';
import {
	InvalidParameter,
	describeType,
	requiredText,
	NOT_JSON,
	parseJsonNumbersAsText,
} from '../../../shared/validation';
import type { AmountUnit } from './amounts';
import { toMinorUnits } from './amounts';

/*
 * An order's line items, from the editor's rows (Line Items) or from JSON (Line Items (JSON)): each
 * becomes `{name, amount, quantity, sale_amount?}` with its amounts in the smallest unit. Problems
 * name the parameter and the line item ("line item 2"), so they are not mistaken for n8n's items.
 */

export const LINE_ITEMS = 'Line Items';
export const LINE_ITEMS_JSON = 'Line Items (JSON)';

const JSON_FIELDS = ['name', 'amount', 'quantity', 'sale_amount'] as const;

export interface AmountReading {
	unit: AmountUnit;
	/** Needed for major units only. */
	currency?: string;
}

function quantityOf(value: unknown, where: string): number {
	const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1) {
		throw new InvalidParameter(
			where,
			`quantity must be a whole number of at least 1, not ${JSON.stringify(value) ?? describeType(value)}`,
		);
	}
	return number;
}

function lineItem(
	fields: { name: unknown; amount: unknown; quantity: unknown; saleAmount: unknown },
	parameter: string,
	position: number,
	reading: AmountReading,
): OrderItem {
	const where = `${parameter}: line item ${position}`;
	const item: OrderItem = {
		name: requiredText(fields.name, `${where} name`),
		amount: toMinorUnits(fields.amount, reading.unit, reading.currency, `${where} amount`),
		quantity: quantityOf(fields.quantity, where),
	};
	const sale = fields.saleAmount;
	if (sale !== undefined && sale !== null && !(typeof sale === 'string' && sale.trim() === '')) {
		item.sale_amount = toMinorUnits(sale, reading.unit, reading.currency, `${where} sale amount`);
		if (item.sale_amount > item.amount) {
			throw new InvalidParameter(
				`${where} sale amount`,
				'must not be more than the amount (it is the lower price actually charged)',
			);
		}
	}
	return item;
}

/** The Line Items rows (`{item: [{name, amount, quantity, saleAmount}]}`). */
export function lineItemsFromRows(collection: unknown, reading: AmountReading): OrderItem[] {
	const rows = ((collection as IDataObject | undefined)?.item ?? []) as IDataObject[];
	if (!Array.isArray(rows) || rows.length === 0) {
		throw new InvalidParameter(LINE_ITEMS, 'must hold at least one line item');
	}
	return rows.map((row, index) =>
		lineItem(
			{
				name: row.name,
				amount: row.amount,
				quantity: row.quantity ?? 1,
				saleAmount: row.saleAmount,
			},
			LINE_ITEMS,
			index + 1,
			reading,
		),
	);
}

function parseJson(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const parsed = parseJsonNumbersAsText(value);
	if (parsed === NOT_JSON) {
		throw new InvalidParameter(
			LINE_ITEMS_JSON,
			'is not valid JSON: give an array such as [{"name": "T-shirt", "amount": "12.34", "quantity": 2}]',
		);
	}
	return parsed;
}

/** Line Items (JSON): an array of `{name, amount, quantity, sale_amount}`, as text or from an expression. */
export function lineItemsFromJson(value: unknown, reading: AmountReading): OrderItem[] {
	const parsed = parseJson(value);
	if (!Array.isArray(parsed)) {
		throw new InvalidParameter(
			LINE_ITEMS_JSON,
			`must be an array of line items, not ${describeType(parsed)}`,
		);
	}
	if (parsed.length === 0)
		throw new InvalidParameter(LINE_ITEMS_JSON, 'must hold at least one line item');
	return parsed.map((entry: unknown, index) => {
		const where = `${LINE_ITEMS_JSON}: line item ${index + 1}`;
		if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
			throw new InvalidParameter(
				where,
				`must be an object with ${JSON_FIELDS.join(', ')}, not ${describeType(entry)}`,
			);
		}
		const fields = entry as IDataObject;
		const unknown = Object.keys(fields).find(
			(key) => !(JSON_FIELDS as readonly string[]).includes(key),
		);
		if (unknown !== undefined) {
			throw new InvalidParameter(
				where,
				`has a field "${unknown}" the service does not take (use ${JSON_FIELDS.join(', ')})`,
			);
		}
		if (fields.quantity === undefined) throw new InvalidParameter(where, 'has no quantity');
		return lineItem(
			{
				name: fields.name,
				amount: fields.amount,
				quantity: fields.quantity,
				saleAmount: fields.sale_amount,
			},
			LINE_ITEMS_JSON,
			index + 1,
			reading,
		);
	});
}
