import { afterAll, beforeAll } from 'vitest';
import { startMockProviders } from './server.mjs';

type MockServer = Awaited<ReturnType<typeof startMockProviders>>;

/** The loopback mock of the provider APIs for one test file: started before its tests, stopped after. */
export function mockProvidersForThisFile({ tokenDelayMs = 0 } = {}): () => MockServer {
  let server: MockServer | undefined;
  beforeAll(async () => {
    server = await startMockProviders({ tokenDelayMs });
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('The mock providers are used before they started');
    return server;
  };
}
