import { isMcpSecretKey } from './mcp-servers.ts';

/**
 * The secrets kept like API keys (in the clear while keys are not protected, sealed with them
 * while they are; never exported): the MCP servers', the sync password and an encrypted sync's key.
 */
export const syncPasswordKey = 'sync:password';

/** The key of an encrypted sync (its raw bytes, base64), kept with the API keys (sealed in the vault while they are protected). */
export const syncKeyKey = 'sync:key';

export const isKeptSecretKey = (key: string) =>
  isMcpSecretKey(key) || key === syncPasswordKey || key === syncKeyKey;
