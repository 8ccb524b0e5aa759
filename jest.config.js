/** Tests are grouped by layer: pure units, workflows run by n8n-core's engine, and a real n8n process. */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };

module.exports = {
	projects: [
		{
			displayName: 'unit',
			testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
			transform,
			testEnvironment: 'node',
		},
		{
			displayName: 'engine',
			testMatch: ['<rootDir>/test/engine/**/*.test.ts'],
			transform,
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
