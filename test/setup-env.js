// n8n-core's logger writes node errors to stdout; tests assert on them instead.
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL ?? 'silent';
