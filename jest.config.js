/**
 * The unit suite (`npm test`): operations through n8n-core's engine against the simulator,
 * helpers, credential, compat loading, contract. What is slow because it exercises time or volume
 * (the fault matrix, the seeded soak, rate limits, wait schedules, half-million-row reports) is
 * the reliability tier: test/reliability/, `npm run test:reliability` (jest.reliability.config.js).
 * @type {import('jest').Config}
 */
module.exports = {
	...require('./jest.base'),
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/reliability/'],
};
