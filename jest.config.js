/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		// Type-checking runs once in CI (`tsc -p test`); per-file transpilation keeps jest fast.
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.jest.json' }],
	},
	testTimeout: 30000,
	setupFiles: ['<rootDir>/test/setup-env.js'],
};
