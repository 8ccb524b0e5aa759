/*
 * The account's known contacts, audiences and conversations: shared by broadcast audiences and the
 * seeded message history so the two tell one story. Audience ids (`aud_…`) are our assumption; the
 * reference shows none.
 */

export interface BookContact {
	phone_number: string;
	name: string;
	liquid_values: Record<string, string>;
}

function person(name: string, phone: string): BookContact {
	return { phone_number: phone, name, liquid_values: { first_name: name.split(' ')[0] } };
}

export const ADA = person('Ada Lovelace', '+14155550123');
export const GRACE = person('Grace Hopper', '+14155550124');
export const LUCIA = person('Lucía Fernández', '+34612345678');
export const JONAS = person('Jonas Becker', '+4915123456789');
export const JOAO = person('João Silva', '+5511987654321');
export const ALAN = person('Alan Turing', '+447700900123');
/** A number that is not on WhatsApp: every message to it fails. */
export const UNREACHABLE = person('Nobody Here', '+14155550000');

export const audiences: Record<string, BookContact[]> = {
	aud_vip_customers: [ADA, GRACE, LUCIA],
	aud_newsletter: [ADA, GRACE, JONAS, JOAO, ALAN, UNREACHABLE],
};

/** Our rule for a deterministic failure: numbers ending in 0000 are not WhatsApp numbers. */
export function unreachableReason(phoneNumber: string): string | undefined {
	return phoneNumber.endsWith('0000') ? `${phoneNumber} is not a WhatsApp number` : undefined;
}
