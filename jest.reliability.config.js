/**
 * The reliability tier (`npm run test:reliability`): every operation × every fault, the seeded
 * soak, pressure (rate limits, token expiry under load), wait schedules and volumes. Slow because
 * it exercises time; CI runs it after the unit suite.
 * @type {import('jest').Config}
 */
const base = require('./jest.base');

module.exports = {
	...base,
	testMatch: ['<rootDir>/test/reliability/**/*.test.ts'],
	testTimeout: 120000,
};
