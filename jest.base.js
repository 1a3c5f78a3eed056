/** What the unit suite (jest.config.js) and the reliability tier (jest.reliability.config.js) share. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	transform: {
		// Type-checking runs once in CI (`tsc -p test`); per-file transpilation keeps jest fast.
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.jest.json' }],
	},
	testTimeout: 30000,
	setupFiles: ['<rootDir>/test/setup-env.js'],
	// Most tests wait on loopback HTTP, not on the CPU: on 2 cores, two workers keep both busy.
	maxWorkers: 2,
};
