/** Tests are grouped by layer: pure units, workflows run by n8n-core's engine, and a real n8n process. */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };

module.exports = {
	projects: [
		{ displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'], transform, testEnvironment: 'node' },
		{ displayName: 'engine', testMatch: ['<rootDir>/test/engine/**/*.test.ts'], transform, testEnvironment: 'node' },
		{ displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'], transform, testEnvironment: 'node' },
	],
};
