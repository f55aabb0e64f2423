/** Where the e2e run serves the app and the mock provider APIs; override to run two suites at once. */
export const appPort = Number(process.env.E2E_APP_PORT ?? 4174);
export const mockPort = Number(process.env.E2E_MOCK_PORT ?? 4319);
export const mockUrl = `http://127.0.0.1:${mockPort}`;
