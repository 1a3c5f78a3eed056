/**
 * The unit suite (`npm test`): operations through n8n-core's engine against the simulator,
 * helpers, credential, compat loading, contract. What is slow because it exercises time or volume
 * (the fault matrix, the seeded soak, rate limits, wait schedules, half-million-row reports) is
 * the reliability tier: test/reliability/, `npm run test:reliability` (jest.reliability.config.js).
 * @type {import('jest').Config}
 */
const base = {
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

module.exports = {
	...base,
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/reliability/'],
};
module.exports.base = base;
