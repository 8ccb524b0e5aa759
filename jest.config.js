/** Tests are grouped by layer: pure units, workflows run by n8n-core's engine, and a real n8n process. */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };
// n8n in these processes gets a regular-expression budget a loaded machine cannot use up (the file says why).
const setupFiles = ['<rootDir>/test/helpers/regexTimeBudget.ts'];

module.exports = {
	// A hang guard, not a speed check: jest's 5 s default is a few times what many engine and HTTP tests
	// take alone, and a loaded two-core CI machine stretches them past it. Files that need more say so.
	testTimeout: 60_000,
	projects: [
		{
			displayName: 'unit',
			testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
			transform,
			setupFiles,
			testEnvironment: 'node',
		},
		{
			displayName: 'engine',
			testMatch: ['<rootDir>/test/engine/**/*.test.ts'],
			transform,
			setupFiles,
			testEnvironment: 'node',
		},
		{
			displayName: 'e2e',
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
			transform,
			testEnvironment: 'node',
			// One real n8n serves every end-to-end file: starting it costs about 20 s.
			globalSetup: '<rootDir>/test/e2e/setup/globalSetup.ts',
			globalTeardown: '<rootDir>/test/e2e/setup/globalTeardown.ts',
		},
		// `npm start` driven as a process, stopped at each step with each signal, with a real n8n
		// (several boots, minutes): `npm run test:start` only, which sets JEST_START_PROJECT=1.
		...(process.env.JEST_START_PROJECT === '1'
			? [
					{
						displayName: 'start',
						testMatch: ['<rootDir>/test/start/**/*.test.ts'],
						transform,
						testEnvironment: 'node',
					},
				]
			: []),
		// n8n in queue mode (Postgres, Redis, main, worker, webhook processor): `npm run test:queue`
		// only, which sets JEST_QUEUE_PROJECT=1; a plain `npx jest` or `npm test` leaves it out.
		...(process.env.JEST_QUEUE_PROJECT === '1'
			? [
					{
						displayName: 'queue',
						testMatch: ['<rootDir>/test/queue/**/*.test.ts'],
						transform,
						testEnvironment: 'node',
					},
				]
			: []),
	],
};
