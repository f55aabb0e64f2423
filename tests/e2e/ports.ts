/**
 * Where the e2e run serves the app, the mock provider APIs and the MCP test servers; override to
 * run two suites at once.
 */
export const appPort = Number(process.env.E2E_APP_PORT ?? 4174);
export const mockPort = Number(process.env.E2E_MOCK_PORT ?? 4319);
export const mockUrl = `http://127.0.0.1:${mockPort}`;
export const mcpPort = Number(process.env.E2E_MCP_PORT ?? 4329);
export const mcpUrl = `http://127.0.0.1:${mcpPort}`;
