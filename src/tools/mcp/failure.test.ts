import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { AnswerLost, callFailure, describeFailure, needsSignIn } from './failure.ts';
import { SignInNeeded } from './oauth.ts';
import { browserBlockedSentence } from './words.ts';

const url = 'https://mcp.example.com/mcp';
const page = 'https://chat.example.org';
const fetchFailed = () => new TypeError('Failed to fetch');
const http = (status: number) =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${status}`, { status });

describe('describeFailure', () => {
  it('says the browser blocked a cross-origin server whose fetch failed', () => {
    expect(describeFailure(fetchFailed(), { url, pageOrigin: page })).toEqual({
      kind: 'cors',
      message:
        'The browser blocked mcp.example.com: the server must allow this origin (https://chat.example.org) and expose Mcp-Session-Id in its CORS headers.',
    });
    expect(browserBlockedSentence('mcp.example.com', page)).toBe(
      describeFailure(fetchFailed(), { url, pageOrigin: page }).message,
    );
    // Wrapped by the SDK's version negotiation, it is the same.
    const wrapped = new SdkError(SdkErrorCode.EraNegotiationFailed, 'probe failed', undefined, {
      cause: fetchFailed(),
    });
    expect(describeFailure(wrapped, { url, pageOrigin: page }).kind).toBe('cors');
  });

  it('says the browser blocked it when the session id could not be read and the next request was refused', () => {
    expect(describeFailure(http(400), { url, pageOrigin: page, sessionHidden: true }).kind).toBe('cors');
    expect(describeFailure(http(400), { url, pageOrigin: page, sessionHidden: false }).kind).toBe('http');
    // Same origin: CORS does not apply.
    expect(
      describeFailure(http(400), { url, pageOrigin: 'https://mcp.example.com', sessionHidden: true }).kind,
    ).toBe('http');
  });

  it('tells a network failure where there is no CORS (same origin, or not a browser)', () => {
    const expected = {
      kind: 'network',
      message: 'Could not reach mcp.example.com: check the address and that the server is running.',
    };
    expect(describeFailure(fetchFailed(), { url })).toEqual(expected);
    expect(describeFailure(fetchFailed(), { url, pageOrigin: 'https://mcp.example.com' })).toEqual(expected);
  });

  it('names HTTP refusals by what to do', () => {
    expect(describeFailure(http(401), { url })).toEqual({
      kind: 'auth',
      message: "mcp.example.com refused the credentials (HTTP 401): check this server's token or headers.",
    });
    expect(describeFailure(http(403), { url }).kind).toBe('auth');
    expect(describeFailure(http(404), { url })).toEqual({
      kind: 'http',
      message: 'mcp.example.com has no MCP server at this address (HTTP 404): check the URL.',
    });
    expect(describeFailure(http(502), { url }).message).toBe(
      'mcp.example.com failed with HTTP 502: try again later.',
    );
  });

  it('calls anything else a protocol failure, in one bounded line', () => {
    const odd = new Error(`Unexpected\ncontent ${'x'.repeat(1000)}`);
    const { kind, message } = describeFailure(odd, { url });
    expect(kind).toBe('protocol');
    expect(message).toMatch(/^mcp\.example\.com did not answer as an MCP server: Unexpected content x+…$/);
    expect(message.length).toBeLessThan(300);
    expect(
      describeFailure(new Error("Server's protocol version is not supported: 1999-01-01"), { url }),
    ).toEqual({
      kind: 'protocol',
      message: 'mcp.example.com speaks no version of MCP this app supports.',
    });
  });
});

describe('callFailure', () => {
  it('says what happened in one sentence', () => {
    expect(
      callFailure(new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown tool: x'), 'Files', false),
    ).toBe('The server Files answered with an error: Unknown tool: x.');
    expect(callFailure(new AnswerLost('Files'), 'Files', false)).toBe(
      'The server Files closed the connection before answering.',
    );
    expect(callFailure(new TypeError('terminated'), 'Files', false)).toBe(
      'The server Files closed the connection before answering.',
    );
    expect(
      callFailure(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), 'Files', false),
    ).toBe('The server Files closed the connection before answering.');
    expect(callFailure(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'), 'Files', false)).toBe(
      'The server Files did not answer in time.',
    );
    expect(callFailure(http(500), 'Files', false)).toBe('The server Files refused the call with HTTP 500.');
    expect(callFailure(new UnauthorizedError(), 'Files', true)).toBe(
      'The server Files needs a sign-in: sign in from its settings, then try again.',
    );
  });

  it('knows when a sign-in is what is missing', () => {
    expect(needsSignIn(new SignInNeeded())).toBe(true);
    expect(needsSignIn(new UnauthorizedError())).toBe(true);
    expect(needsSignIn(fetchFailed())).toBe(false);
  });
});
