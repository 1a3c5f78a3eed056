// n8n-core's logger writes node errors to stdout; tests assert on them instead.
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL ?? 'silent';
// Keep binary data in memory (n8n-core's default mode writes files under the user folder).
process.env.N8N_DEFAULT_BINARY_DATA_MODE = process.env.N8N_DEFAULT_BINARY_DATA_MODE ?? 'default';
process.env.N8N_USER_FOLDER =
	process.env.N8N_USER_FOLDER ?? require('node:os').tmpdir() + '/n8n-nodes-abbyy-vantage-tests';
