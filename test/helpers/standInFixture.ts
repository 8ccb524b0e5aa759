import type { StandInOptions, StandInService } from '../../sandbox/server';
import { startStandInService } from '../../sandbox/server';

/**
 * One stand-in service for a test file: started before its tests, log and faults cleared before
 * each test, closed after them all. The handle forwards to the running service, so a file can
 * declare it once at the top and use it like the service itself.
 */
export function useStandInService(options: StandInOptions): StandInService {
	let running: StandInService | undefined;
	beforeAll(async () => {
		running = await startStandInService(options);
	});
	afterAll(async () => {
		await running?.close();
	});
	beforeEach(() => {
		running!.clearRequests();
		running!.clearFaults();
		running!.answerSuccessWith([]);
		running!.refuseWrongKeysWith(null);
	});
	return new Proxy({} as StandInService, {
		get(_target, property) {
			if (!running) throw new Error('the stand-in service is used before beforeAll started it');
			const value = Reflect.get(running, property, running);
			return typeof value === 'function' ? value.bind(running) : value;
		},
	});
}
