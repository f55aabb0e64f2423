import {
  auth,
  extractWWWAuthenticateParams,
  type AuthProvider,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { McpOAuthStore } from './types.ts';

/**
 * OAuth 2.1 for one MCP server, over the app's secret store: the SDK runs discovery, dynamic
 * client registration, PKCE, the code exchange and refreshes; this file keeps what it hands over
 * (tokens and client registrations per authorization server, the PKCE verifier, the state and
 * what discovery found) and decides when the user is asked.
 *
 * Nothing here opens a window by itself: connecting only ever uses (or refreshes) what is
 * stored; when that is not enough the server needs a sign-in, which starts from a user's click.
 */

/** Thrown where a sign-in would be needed while connecting: the status becomes needs-sign-in. */
export class SignInNeeded extends Error {
  constructor() {
    super('The server needs a sign-in.');
    this.name = 'SignInNeeded';
  }
}

/** A random value for `state`: 32 bytes, base64url. */
function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=/g, '');
}

export interface OAuthSettings {
  /** The server's id: every key of the store starts with it and a colon. */
  serverId: string;
  store: McpOAuthStore;
  redirectUrl: string;
  /** A client registered beforehand with the authorization server (else dynamic registration). */
  clientId?: string;
  scope?: string;
  clientName: string;
}

/**
 * The SDK's OAuthClientProvider over the store. Tokens and client registrations are kept per
 * authorization server (by its issuer): credentials from one are never offered to another.
 * `interactive` is set only during a sign-in the user started: otherwise the flow may refresh,
 * but where it would send the user to the authorization server it stops with SignInNeeded.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  /** Where the sign-in window goes; set during a sign-in the user started. */
  interactive: ((authorizationUrl: URL) => void) | undefined;
  private readonly settings: OAuthSettings;

  constructor(settings: OAuthSettings) {
    this.settings = settings;
  }

  private key(name: string) {
    return `${this.settings.serverId}:${name}`;
  }

  private async readJson<T>(name: string): Promise<T | undefined> {
    const text = await this.settings.store.read(this.key(name));
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      return undefined;
    }
  }

  private writeJson(name: string, value: unknown) {
    return this.settings.store.write(this.key(name), value === undefined ? undefined : JSON.stringify(value));
  }

  get redirectUrl() {
    return this.settings.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.settings.clientName,
      redirect_uris: [this.settings.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // A browser app: the SDK would call a loopback redirect 'native'.
      application_type: 'web',
      ...(this.settings.scope && { scope: this.settings.scope }),
    };
  }

  async state(): Promise<string> {
    const state = randomState();
    if (this.interactive) await this.settings.store.write(this.key('state'), state);
    return state;
  }

  /** The state of the sign-in under way, to compare with the one that comes back. */
  expectedState(): Promise<string | undefined> {
    return this.settings.store.read(this.key('state'));
  }

  /** The issuer of the authorization server discovery found (what `iss` must equal). */
  async issuer(): Promise<{ issuer: string | undefined; issParameterSupported: boolean }> {
    const discovery = await this.discoveryState();
    const metadata = discovery?.authorizationServerMetadata;
    return {
      issuer: metadata?.issuer ?? discovery?.authorizationServerUrl,
      issParameterSupported: metadata?.authorization_response_iss_parameter_supported === true,
    };
  }

  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    // A client registered beforehand is the user's choice for this server, with the
    // authorization server it names (only its tokens are kept per authorization server).
    if (this.settings.clientId)
      return { client_id: this.settings.clientId, ...(ctx && { issuer: ctx.issuer }) };
    if (!ctx) return undefined;
    return this.readJson<StoredOAuthClientInformation>(`client:${ctx.issuer}`);
  }

  async saveClientInformation(
    information: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ) {
    // A client registered beforehand comes from the configuration every time.
    if (this.settings.clientId) return;
    const issuer = ctx?.issuer ?? information.issuer;
    if (issuer) await this.writeJson(`client:${issuer}`, information);
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    // Without ctx it is the transport's read for the MCP server: the tokens of the authorization
    // server that server names now (discovery's), never another's.
    const issuer = ctx?.issuer ?? (await this.issuer()).issuer;
    if (!issuer) return undefined;
    return this.readJson<StoredOAuthTokens>(`tokens:${issuer}`);
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext) {
    const issuer = ctx?.issuer ?? tokens.issuer;
    if (issuer) await this.writeJson(`tokens:${issuer}`, tokens);
  }

  redirectToAuthorization(authorizationUrl: URL) {
    if (!this.interactive) throw new SignInNeeded();
    this.interactive(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string) {
    // Only a sign-in the user started keeps one: a refresh that fell through must not replace it.
    if (this.interactive) await this.settings.store.write(this.key('verifier'), codeVerifier);
  }

  async codeVerifier(): Promise<string> {
    const verifier = await this.settings.store.read(this.key('verifier'));
    if (!verifier) throw new Error('No sign-in is under way for this server.');
    return verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState) {
    return this.writeJson('discovery', state);
  }

  discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.readJson<OAuthDiscoveryState>('discovery');
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    const { issuer } = await this.issuer();
    if ((scope === 'all' || scope === 'client') && issuer)
      await this.writeJson(`client:${issuer}`, undefined);
    if ((scope === 'all' || scope === 'tokens') && issuer)
      await this.writeJson(`tokens:${issuer}`, undefined);
    if (scope === 'all' || scope === 'verifier') await this.endSignIn();
    if (scope === 'all' || scope === 'discovery') await this.writeJson('discovery', undefined);
  }

  /** Forgets the state and verifier of a sign-in, done or abandoned. */
  async endSignIn() {
    await this.settings.store.write(this.key('state'), undefined);
    await this.settings.store.write(this.key('verifier'), undefined);
  }
}

/** What the last 401 said about where to sign in (RFC 9728), for the sign-in that follows. */
export interface Challenge {
  resourceMetadataUrl?: URL;
  scope?: string;
}

/**
 * The transport's auth while connecting: the stored access token, and on a 401 a refresh when a
 * refresh token is stored (the SDK's flow); with none, or when the refresh fails, SignInNeeded.
 * The OAuthClientProvider is deliberately not handed to the transport: its 401 handling would go
 * on to register a client and start an authorization nobody asked for.
 */
export function connectingAuth(
  provider: StoredOAuthProvider,
  challenge: Challenge,
  fetchFn: (input: string | URL, init?: RequestInit) => Promise<Response>,
): AuthProvider {
  return {
    token: async () => (await provider.tokens())?.access_token,
    async onUnauthorized({ response, serverUrl }) {
      const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
      if (resourceMetadataUrl) challenge.resourceMetadataUrl = resourceMetadataUrl;
      if (scope) challenge.scope = scope;
      if (!(await provider.tokens())?.refresh_token) throw new SignInNeeded();
      provider.interactive = undefined;
      const result = await auth(provider, { serverUrl, resourceMetadataUrl, scope, fetchFn });
      if (result !== 'AUTHORIZED') throw new SignInNeeded();
    },
  };
}
