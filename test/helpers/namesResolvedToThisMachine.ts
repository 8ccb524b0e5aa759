/*
 * Host names resolved for one test file as a public DNS server would answer them, with no network:
 * both of Node's lookups answer them (dns.lookup, which a connection uses, and dns.promises.lookup,
 * which n8n's egress filter resolves names with), in the form asked (one address, or all), and pass
 * every other name to the real lookup. Tests of where the node sends bytes use it to reach a
 * listener of theirs under a public-looking name, or to give a name the address a name like
 * `127.0.0.1.nip.io` has on the internet. jest.restoreAllMocks(), or the returned restore(), gives
 * the real lookups back.
 */
import dns from 'node:dns';
import { isIP } from 'node:net';

type Lookup = (...args: unknown[]) => void;

export interface ResolvedNames {
	/** Gives the real lookups back. */
	mockRestore(): void;
}

/** Answers each name `addressOf` gives an address for with that address (IPv4 or IPv6). */
export function resolveNames(addressOf: (hostname: string) => string | undefined): ResolvedNames {
	const realLookup = dns.lookup.bind(dns) as Lookup;
	const record = (address: string) => ({ address, family: isIP(address) });
	const callbackLookup = jest.spyOn(dns, 'lookup').mockImplementation(((
		hostname: string,
		options: unknown,
		callback?: Lookup,
	) => {
		const address = addressOf(hostname);
		if (address === undefined) return realLookup(hostname, options, callback);
		const done = (typeof options === 'function' ? options : callback) as Lookup;
		const all =
			typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
		process.nextTick(() =>
			all ? done(null, [record(address)]) : done(null, address, isIP(address)),
		);
	}) as unknown as typeof dns.lookup);
	const realPromiseLookup = dns.promises.lookup.bind(dns.promises);
	const promiseLookup = jest.spyOn(dns.promises, 'lookup').mockImplementation((async (
		hostname: string,
		options?: { all?: boolean },
	) => {
		const address = addressOf(hostname);
		if (address === undefined) return await realPromiseLookup(hostname, options as never);
		return options?.all ? [record(address)] : record(address);
	}) as unknown as typeof dns.promises.lookup);
	return {
		mockRestore() {
			callbackLookup.mockRestore();
			promiseLookup.mockRestore();
		},
	};
}

/** Resolves the names `isResolved` picks to this machine (127.0.0.1). */
export function resolveToThisMachine(isResolved: (hostname: string) => boolean): ResolvedNames {
	return resolveNames((hostname) => (isResolved(hostname) ? '127.0.0.1' : undefined));
}
