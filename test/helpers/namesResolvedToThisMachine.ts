/*
 * Host names resolved to this machine (127.0.0.1) for one test file: dns.lookup answers them, in
 * the form asked (one address, or all), and passes every other name to the real lookup. Tests of
 * where the node sends bytes use it to reach a listener of theirs under a public-looking name.
 * jest.restoreAllMocks(), or the returned spy's mockRestore(), gives the real lookup back.
 */
import dns from 'node:dns';

export function resolveToThisMachine(isResolved: (hostname: string) => boolean) {
	const realLookup = dns.lookup.bind(dns);
	return jest.spyOn(dns, 'lookup').mockImplementation(((
		hostname: string,
		options: unknown,
		callback?: (...args: unknown[]) => void,
	) => {
		if (!isResolved(hostname))
			return (realLookup as (...args: unknown[]) => void)(hostname, options, callback);
		const done = (typeof options === 'function' ? options : callback) as (
			...args: unknown[]
		) => void;
		const all =
			typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
		process.nextTick(() =>
			all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4),
		);
	}) as unknown as typeof dns.lookup);
}
