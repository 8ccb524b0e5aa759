import { InvalidParameter } from '../../nodes/shared/validation';

/*
 * For unit tests of the node's readers and normalisers: the InvalidParameter a refused value
 * throws, so a test can check the parameter it names and the reason it gives.
 */

/** Runs `read` and returns the InvalidParameter it throws; fails the test if it throws anything else or nothing. */
export function refusal(read: () => unknown): InvalidParameter {
	try {
		read();
	} catch (error) {
		expect(error).toBeInstanceOf(InvalidParameter);
		return error as InvalidParameter;
	}
	throw new Error('expected an InvalidParameter, but the value was accepted');
}
