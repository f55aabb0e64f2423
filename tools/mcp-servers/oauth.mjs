// @ts-check
/**
 * A small OAuth 2.1 authorization server for the MCP test servers, and the resource-server side
 * (bearer check, protected-resource metadata) built on the SDK's helpers.
 *
 * The SDK has no authorization server that fits: v2 (`@modelcontextprotocol/server`) ships only
 * resource-server helpers, and v1's `mcpAuthRouter` needs Express (not a dependency here), mounts
 * its endpoints at the origin root and does not advertise RFC 9207's
 * `authorization_response_iss_parameter_supported`. So the authorization server is written here,
 * web-standard Request → Response like the SDK's own handlers.
 *
 * It is strict where the MCP authorization spec says MUST: PKCE S256 only, exact redirect URIs,
 * the RFC 8707 `resource` in both the authorization and the token request, `iss` in every
 * redirect. A refresh token is issued only to a client that registered the `refresh_token`
 * grant (RFC 7591 defaults grant_types to authorization_code alone; servers that gate refresh
 * on it exist), and each refresh rotates it (OAuth 2.1 §4.3.1 for public clients).
 */

import {
  OAuthError,
  OAuthErrorCode,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  requireBearerAuth,
} from '@modelcontextprotocol/server';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Where the authorization server lives on the test servers' origin: its issuer is origin + this. */
export const issuerPath = '/oauth-as';
const scopesSupported = ['mcp'];
const authMethods = ['none', 'client_secret_post', 'client_secret_basic'];
const codeLifetimeSeconds = 60;
/** The lifetimes the consent page proposes; the person (or test) approving can shorten them. */
const defaultAccessTtlSeconds = 3600;
const defaultRefreshTtlSeconds = 86_400;

/**
 * @typedef {object} RegisteredClient
 * @property {string} clientId
 * @property {string | undefined} secret
 * @property {Record<string, unknown> & { redirect_uris: string[], grant_types: string[], token_endpoint_auth_method: string }} metadata
 *
 * @typedef {object} Grant what an approval allows; codes and tokens carry one
 * @property {string} clientId
 * @property {string} resource
 * @property {string[]} scopes
 * @property {number} accessTtl seconds
 * @property {number} refreshTtl seconds
 *
 * @typedef {Grant & { redirectUri: string, codeChallenge: string, state: string | undefined }} AuthorizationRequest
 */

const token = () => randomBytes(24).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** @param {unknown} body @param {number} status @param {Record<string, string>} [headers] */
const json = (body, status, headers = {}) =>
  Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...headers } });

/** An RFC 6749 §5.2 error answer. @param {string} error @param {string} description @param {number} [status] */
const oauthError = (error, description, status = 400) =>
  json({ error, error_description: description }, status);

/** @param {string} text */
const escapeHtml = (text) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** @param {string} title @param {string} body @param {number} [status] */
const htmlPage = (title, body, status = 200) =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
      '<meta name="viewport" content="width=device-width">' +
      '<style>body{font:16px system-ui;max-width:32rem;margin:2rem auto;padding:0 1rem}' +
      'label{display:block;margin:.5rem 0}button{font:inherit;margin-right:.5rem;padding:.3rem 1rem}</style>' +
      `</head><body>${body}</body></html>`,
    { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } },
  );

/** RFC 7636 S256. @param {string} verifier */
const s256 = (verifier) => createHash('sha256').update(verifier).digest('base64url');

/** @param {string} a @param {string} b */
function sameSecret(a, b) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** @param {string} value */
function parseUrl(value) {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * @param {object} options
 * @param {(resource: URL, origin: string) => boolean} options.isResource whether a URL names one of
 *   the MCP servers this authorization server (at `origin`) protects
 */
export function createAuthorizationServer({ isResource }) {
  /** @type {Map<string, RegisteredClient>} */
  const clients = new Map();
  /** Authorization requests shown on a consent page, awaiting the decision. @type {Map<string, AuthorizationRequest>} */
  const pending = new Map();
  /** @type {Map<string, AuthorizationRequest & { expiresAt: number }>} */
  const codes = new Map();
  /** @type {Map<string, Grant & { expiresAt: number }>} */
  const accessTokens = new Map();
  /** @type {Map<string, Grant & { expiresAt: number }>} */
  const refreshTokens = new Map();

  /** @param {string} origin @returns {import('@modelcontextprotocol/server').OAuthMetadata} */
  function metadata(origin) {
    const issuer = origin + issuerPath;
    return {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      scopes_supported: scopesSupported,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: authMethods,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      // Client ID metadata documents need an https client_id, which a loopback test app cannot have.
      client_id_metadata_document_supported: false,
    };
  }

  /** @param {Grant} grant */
  function issueTokens(grant) {
    const access = token();
    accessTokens.set(access, { ...grant, expiresAt: now() + grant.accessTtl });
    const client = clients.get(grant.clientId);
    /** @type {Record<string, unknown>} */
    const body = {
      access_token: access,
      token_type: 'Bearer',
      expires_in: grant.accessTtl,
      scope: grant.scopes.join(' '),
    };
    if (client?.metadata.grant_types.includes('refresh_token')) {
      const refresh = token();
      refreshTokens.set(refresh, { ...grant, expiresAt: now() + grant.refreshTtl });
      body.refresh_token = refresh;
    }
    return json(body, 200, { Pragma: 'no-cache' });
  }

  /** RFC 7591 dynamic client registration. @param {Request} request */
  async function register(request) {
    /** @type {unknown} */
    let body;
    try {
      body = await request.json();
    } catch {
      return oauthError(OAuthErrorCode.InvalidClientMetadata, 'The body must be a JSON object.');
    }
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return oauthError(OAuthErrorCode.InvalidClientMetadata, 'The body must be a JSON object.');
    const fields = /** @type {Record<string, unknown>} */ (body);
    const redirectUris = fields.redirect_uris;
    if (
      !Array.isArray(redirectUris) ||
      redirectUris.length === 0 ||
      !redirectUris.every((uri) => typeof uri === 'string' && parseUrl(uri) && !uri.includes('#'))
    )
      return oauthError(
        OAuthErrorCode.InvalidRedirectUri,
        'redirect_uris must list absolute URLs without a fragment.',
      );
    const authMethod = fields.token_endpoint_auth_method ?? 'client_secret_basic';
    if (typeof authMethod !== 'string' || !authMethods.includes(authMethod))
      return oauthError(
        OAuthErrorCode.InvalidClientMetadata,
        `token_endpoint_auth_method must be one of ${authMethods}.`,
      );
    const grantTypes = fields.grant_types ?? ['authorization_code'];
    if (
      !Array.isArray(grantTypes) ||
      !grantTypes.every((grant) => grant === 'authorization_code' || grant === 'refresh_token')
    )
      return oauthError(
        OAuthErrorCode.InvalidClientMetadata,
        'grant_types may hold authorization_code and refresh_token.',
      );
    const responseTypes = fields.response_types ?? ['code'];
    if (!Array.isArray(responseTypes) || responseTypes.some((type) => type !== 'code'))
      return oauthError(OAuthErrorCode.InvalidClientMetadata, 'response_types may only hold code.');
    if (
      fields.application_type !== undefined &&
      fields.application_type !== 'web' &&
      fields.application_type !== 'native'
    )
      return oauthError(OAuthErrorCode.InvalidClientMetadata, 'application_type must be web or native.');
    const clientId = `client-${token()}`;
    const secret = authMethod === 'none' ? undefined : token();
    const metadata = {
      ...fields,
      redirect_uris: /** @type {string[]} */ (redirectUris),
      token_endpoint_auth_method: authMethod,
      grant_types: /** @type {string[]} */ (grantTypes),
      response_types: responseTypes,
    };
    clients.set(clientId, { clientId, secret, metadata });
    return json(
      {
        ...metadata,
        client_id: clientId,
        client_id_issued_at: now(),
        ...(secret !== undefined && { client_secret: secret, client_secret_expires_at: 0 }),
      },
      201,
    );
  }

  /**
   * The authorization endpoint, GET: checks the request and shows the consent page. Errors about
   * the client or its redirect URI are shown, never redirected (RFC 6749 §4.1.2.1).
   * @param {URL} url
   * @param {string} origin
   */
  function authorize(url, origin) {
    const param = (/** @type {string} */ name) => url.searchParams.get(name) ?? undefined;
    const client = clients.get(param('client_id') ?? '');
    if (!client)
      return htmlPage(
        'Unknown client',
        '<h1>Unknown client</h1><p>No client is registered with this client_id.</p>',
        400,
      );
    const redirectUri = param('redirect_uri');
    if (!redirectUri || !client.metadata.redirect_uris.includes(redirectUri))
      return htmlPage(
        'Bad redirect URI',
        '<h1>Bad redirect URI</h1><p>redirect_uri is not one the client registered.</p>',
        400,
      );
    const state = param('state');
    /** @param {string} error @param {string} description */
    const refuse = (error, description) =>
      redirect(redirectUri, { error, error_description: description, state }, origin);
    if (param('response_type') !== 'code')
      return refuse(OAuthErrorCode.UnsupportedResponseType, 'response_type must be code.');
    const codeChallenge = param('code_challenge');
    if (!codeChallenge || param('code_challenge_method') !== 'S256')
      return refuse(
        OAuthErrorCode.InvalidRequest,
        'PKCE is required: code_challenge with code_challenge_method S256.',
      );
    const resource = param('resource');
    const resourceUrl = parseUrl(resource ?? '');
    if (!resource || !resourceUrl || !isResource(resourceUrl, origin))
      return refuse(
        OAuthErrorCode.InvalidTarget,
        'resource must name an MCP server protected by this authorization server.',
      );
    const requested = (param('scope') ?? scopesSupported.join(' ')).split(' ').filter(Boolean);
    // Scopes this server does not know are dropped, not refused; the token response says what was granted.
    const scopes = requested.filter((scope) => scopesSupported.includes(scope));
    const requestId = token();
    pending.set(requestId, {
      clientId: client.clientId,
      redirectUri,
      codeChallenge,
      state,
      resource,
      scopes: scopes.length > 0 ? scopes : scopesSupported,
      accessTtl: defaultAccessTtlSeconds,
      refreshTtl: defaultRefreshTtlSeconds,
    });
    const name =
      typeof client.metadata.client_name === 'string' ? client.metadata.client_name : client.clientId;
    return htmlPage(
      'Authorize access',
      `<h1>Authorize access</h1>
<p><strong>${escapeHtml(name)}</strong> wants to use <code>${escapeHtml(resource)}</code> on your behalf.</p>
<p>It will be sent back to <code>${escapeHtml(new URL(redirectUri).origin)}</code>.</p>
<form method="post" action="${issuerPath}/authorize">
<input type="hidden" name="request_id" value="${requestId}">
<label>Access token lifetime (seconds) <input name="access_ttl" type="number" min="1" value="${defaultAccessTtlSeconds}"></label>
<label>Refresh token lifetime (seconds) <input name="refresh_ttl" type="number" min="1" value="${defaultRefreshTtlSeconds}"></label>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></p>
</form>`,
    );
  }

  /**
   * The redirect back to the client, with `iss` (RFC 9207) beside the result.
   * @param {string} redirectUri @param {Record<string, string | undefined>} params @param {string} origin
   */
  function redirect(redirectUri, params, origin) {
    const target = new URL(redirectUri);
    for (const [name, value] of Object.entries({ ...params, iss: origin + issuerPath })) {
      if (value !== undefined) target.searchParams.set(name, value);
    }
    return new Response(null, {
      status: 302,
      headers: { Location: target.href, 'Cache-Control': 'no-store' },
    });
  }

  /** The consent form's answer. @param {Request} request @param {string} origin */
  async function decide(request, origin) {
    const form = new URLSearchParams(await request.text());
    const requestId = form.get('request_id') ?? '';
    const asked = pending.get(requestId);
    if (!asked)
      return htmlPage(
        'Expired',
        '<h1>This authorization request is over</h1><p>Start again from the app.</p>',
        400,
      );
    pending.delete(requestId);
    if (form.get('decision') !== 'approve')
      return redirect(asked.redirectUri, { error: OAuthErrorCode.AccessDenied, state: asked.state }, origin);
    /** @param {string} name @param {number} fallback */
    const seconds = (name, fallback) => {
      const value = Number(form.get(name));
      return Number.isInteger(value) && value > 0 ? value : fallback;
    };
    const code = token();
    codes.set(code, {
      ...asked,
      accessTtl: seconds('access_ttl', asked.accessTtl),
      refreshTtl: seconds('refresh_ttl', asked.refreshTtl),
      expiresAt: now() + codeLifetimeSeconds,
    });
    return redirect(asked.redirectUri, { code, state: asked.state }, origin);
  }

  /**
   * The client a token request authenticates as (RFC 6749 §2.3), by the method it registered.
   * @param {Request} request @param {URLSearchParams} form
   * @returns {RegisteredClient | Response}
   */
  function authenticate(request, form) {
    const basic = /^Basic\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    let clientId = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    let method = secret === undefined ? 'none' : 'client_secret_post';
    if (basic) {
      const [id = '', key = ''] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      clientId = decodeURIComponent(id);
      secret = decodeURIComponent(key);
      method = 'client_secret_basic';
    }
    const client = clients.get(clientId ?? '');
    if (
      !client ||
      client.metadata.token_endpoint_auth_method !== method ||
      (client.secret !== undefined && !sameSecret(client.secret, secret ?? ''))
    )
      return oauthError(OAuthErrorCode.InvalidClient, 'Client authentication failed.', 401);
    return client;
  }

  /** The token endpoint. @param {Request} request */
  async function tokenEndpoint(request) {
    if (!(request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded'))
      return oauthError(OAuthErrorCode.InvalidRequest, 'The body must be application/x-www-form-urlencoded.');
    const form = new URLSearchParams(await request.text());
    const client = authenticate(request, form);
    if (client instanceof Response) return client;
    const grantType = form.get('grant_type');
    const resource = form.get('resource') ?? undefined;
    if (grantType === 'authorization_code') {
      const code = form.get('code') ?? '';
      const issued = codes.get(code);
      codes.delete(code); // single use, even when this attempt fails
      if (!issued || issued.expiresAt < now() || issued.clientId !== client.clientId)
        return oauthError(OAuthErrorCode.InvalidGrant, 'The authorization code is unknown, used or expired.');
      if (form.get('redirect_uri') !== issued.redirectUri)
        return oauthError(
          OAuthErrorCode.InvalidGrant,
          'redirect_uri differs from the authorization request.',
        );
      const verifier = form.get('code_verifier') ?? '';
      if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier) || s256(verifier) !== issued.codeChallenge)
        return oauthError(OAuthErrorCode.InvalidGrant, 'code_verifier does not match the code_challenge.');
      if (resource !== issued.resource)
        return oauthError(
          OAuthErrorCode.InvalidTarget,
          'resource must repeat the one in the authorization request.',
        );
      const { clientId, scopes, accessTtl, refreshTtl } = issued;
      return issueTokens({ clientId, resource, scopes, accessTtl, refreshTtl });
    }
    if (grantType === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? '';
      const grant = refreshTokens.get(refresh);
      if (!grant || grant.expiresAt < now() || grant.clientId !== client.clientId)
        return oauthError(OAuthErrorCode.InvalidGrant, 'The refresh token is unknown, used or expired.');
      if (resource !== undefined && resource !== grant.resource)
        return oauthError(OAuthErrorCode.InvalidTarget, 'resource differs from the one this grant is for.');
      const scope = form.get('scope');
      const scopes = scope ? scope.split(' ').filter(Boolean) : grant.scopes;
      if (!scopes.every((name) => grant.scopes.includes(name)))
        return oauthError(OAuthErrorCode.InvalidScope, 'A refresh cannot widen the granted scope.');
      refreshTokens.delete(refresh);
      const { clientId, accessTtl, refreshTtl } = grant;
      return issueTokens({ clientId, resource: grant.resource, scopes, accessTtl, refreshTtl });
    }
    return oauthError(
      OAuthErrorCode.UnsupportedGrantType,
      'grant_type must be authorization_code or refresh_token.',
    );
  }

  /** @type {import('@modelcontextprotocol/server').OAuthTokenVerifier} */
  const verifier = {
    async verifyAccessToken(accessToken) {
      const grant = accessTokens.get(accessToken);
      if (!grant) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown access token');
      // An expired token is reported with its past expiry; the SDK refuses it as expired.
      return {
        token: accessToken,
        clientId: grant.clientId,
        scopes: grant.scopes,
        expiresAt: grant.expiresAt,
        resource: new URL(grant.resource),
      };
    },
  };

  return {
    /**
     * Answers the authorization server's own endpoints and its RFC 8414 metadata (at the
     * path-aware well-known URL of an issuer with a path); `undefined` for any other path.
     * @param {Request} request
     * @returns {Promise<Response | undefined>}
     */
    async handle(request) {
      const url = new URL(request.url);
      const route = `${request.method} ${url.pathname}`;
      if (route === `GET /.well-known/oauth-authorization-server${issuerPath}`)
        return json(metadata(url.origin), 200);
      if (route === `POST ${issuerPath}/register`) return register(request);
      if (route === `GET ${issuerPath}/authorize`) return authorize(url, url.origin);
      if (route === `POST ${issuerPath}/authorize`) return decide(request, url.origin);
      if (route === `POST ${issuerPath}/token`) return tokenEndpoint(request);
      return undefined;
    },

    /** Whether a path is one of the authorization server's (all but /authorize are called with fetch). @param {string} path */
    owns: (path) =>
      path.startsWith(`${issuerPath}/`) || path === `/.well-known/oauth-authorization-server${issuerPath}`,

    /** The RFC 9728 document of a protected MCP server. @param {URL} resource */
    protectedResourceMetadata: (resource) =>
      json(
        buildOAuthProtectedResourceMetadata({
          oauthMetadata: metadata(resource.origin),
          resourceServerUrl: resource,
          scopesSupported,
          resourceName: 'MCP test server (OAuth)',
        }),
        200,
      ),

    /**
     * The SDK's bearer check for one protected MCP server: the verified token, or the 401 with
     * `WWW-Authenticate: Bearer … resource_metadata="…"` to send.
     * @param {Request} request @param {URL} resource
     */
    checkBearer: (request, resource) =>
      requireBearerAuth({
        verifier,
        expectedResource: resource,
        resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource),
      })(request),
  };
}
