import { isMcpSecretKey } from './mcp-servers.ts';

/**
 * The secrets kept like API keys (in the clear while keys are not protected, sealed with them
 * while they are; never exported): the MCP servers' and the sync password.
 */
export const syncPasswordKey = 'sync:password';

export const isKeptSecretKey = (key: string) => isMcpSecretKey(key) || key === syncPasswordKey;
