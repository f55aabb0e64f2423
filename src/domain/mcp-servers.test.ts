import { describe, expect, it } from 'vitest';
import { parseHeaderLines, readMcpSecret, serverFromDraft } from './mcp-server-input.ts';
import { isMcpSecretKey, mcpSecretKey, mcpUrlProblem, readMcpServers } from './mcp-servers.ts';

describe('MCP server URLs', () => {
  it('takes https anywhere and plain http only on this computer', () => {
    expect(mcpUrlProblem('https://mcp.example.com/mcp')).toBeNull();
    expect(mcpUrlProblem('http://127.0.0.1:8931/mcp')).toBeNull();
    expect(mcpUrlProblem('http://localhost:3000/sse')).toBeNull();
    // Other loopback forms are outside the page's Content-Security-Policy.
    expect(mcpUrlProblem('http://[::1]:3000/mcp')).toBe(
      'Use https: plain http is allowed only for localhost and 127.0.0.1.',
    );
    expect(mcpUrlProblem('http://mcp.example.com/mcp')).toBe(
      'Use https: plain http is allowed only for localhost and 127.0.0.1.',
    );
    expect(mcpUrlProblem('ftp://example.com')).toBe('Enter an https URL.');
    expect(mcpUrlProblem('example.com/mcp')).toBe(
      'Enter the server’s full URL, like https://example.com/mcp.',
    );
  });
});

describe('header lines', () => {
  it('reads Name: value lines, skipping blank ones', () => {
    expect(parseHeaderLines('X-Api-Key: abc123\n\n  Authorization: Bearer t:o:k  ')).toEqual({
      headers: { 'X-Api-Key': 'abc123', Authorization: 'Bearer t:o:k' },
    });
  });

  it('names the first line at fault', () => {
    expect(parseHeaderLines('X-Ok: 1\nnot a header')).toEqual({
      problem: 'Line 2: write each header as Name: value.',
    });
    expect(parseHeaderLines('Mcp-Session-Id: forged')).toEqual({
      problem: 'Line 1: Mcp-Session-Id is set by the browser or the protocol.',
    });
    expect(parseHeaderLines('Referer: x')).toEqual({
      problem: 'Line 1: Referer is set by the browser or the protocol.',
    });
    expect(parseHeaderLines('Sec-Fetch-Mode: cors')).toEqual({
      problem: 'Line 1: Sec-Fetch-Mode is set by the browser or the protocol.',
    });
    expect(parseHeaderLines('X-Line: a\u0000b')).toEqual({
      problem: 'Line 1: the value of X-Line must be plain text.',
    });
    expect(parseHeaderLines('X-Empty:')).toEqual({
      problem: 'Line 1: the value of X-Empty must be plain text.',
    });
  });
});

describe('a server from what the user typed', () => {
  it('keeps a bearer token as its Authorization header, apart from the server', () => {
    const made = serverFromDraft(
      { url: ' https://mcp.example.com/mcp ', auth: 'bearer', token: ' s3cret ' },
      'mcp-1',
    );
    expect(made).toEqual({
      server: {
        id: 'mcp-1',
        name: 'mcp.example.com',
        url: 'https://mcp.example.com/mcp',
        auth: 'bearer',
        enabled: true,
        disabledTools: [],
      },
      secret: { headers: { Authorization: 'Bearer s3cret' } },
    });
    expect(JSON.stringify('server' in made && made.server)).not.toContain('s3cret');
  });

  it('refuses what cannot be sent, in one sentence', () => {
    expect(
      serverFromDraft({ url: 'https://a.example', auth: 'bearer', token: 'two words' }, 'mcp-1'),
    ).toEqual({
      problem: 'Enter the token, without spaces.',
    });
    expect(serverFromDraft({ url: 'https://a.example', auth: 'headers', headerLines: ' ' }, 'mcp-1')).toEqual(
      {
        problem: 'Enter at least one header.',
      },
    );
    expect(serverFromDraft({ url: 'http://a.example', auth: 'none' }, 'mcp-1')).toEqual({
      problem: 'Use https: plain http is allowed only for localhost and 127.0.0.1.',
    });
  });

  it('keeps an OAuth client id and a given name', () => {
    expect(
      serverFromDraft(
        { url: 'https://a.example/mcp', name: ' Files ', auth: 'oauth', clientId: ' app-1 ' },
        'mcp-2',
      ),
    ).toMatchObject({ server: { name: 'Files', auth: 'oauth', clientId: 'app-1' }, secret: null });
  });
});

describe('stored servers and secrets', () => {
  it('reads back what was stored and drops what does not read, one by one', () => {
    const good = {
      id: 'mcp-1',
      name: 'Files',
      url: 'https://a.example/mcp',
      auth: 'none',
      enabled: false,
      disabledTools: ['delete', 7],
    };
    expect(
      readMcpServers([
        good,
        { ...good, id: 'mcp-1' },
        { ...good, id: 'builtin' },
        { ...good, id: 'mcp-2', url: 'http://far.example' },
        { ...good, id: 'mcp-3', auth: 'magic' },
        null,
      ]),
    ).toEqual([{ ...good, disabledTools: ['delete'] }]);
    expect(readMcpServers({ not: 'a list' })).toEqual([]);
  });

  it('reads a kept secret, and nothing from a damaged one', () => {
    expect(readMcpSecret('{"headers":{"X-Key":"v","bad":1}}')).toEqual({ headers: { 'X-Key': 'v' } });
    expect(readMcpSecret('{')).toEqual({ headers: {} });
    expect(readMcpSecret(undefined)).toEqual({ headers: {} });
  });

  it('tells MCP secrets from the keys of provider connections', () => {
    expect(isMcpSecretKey(mcpSecretKey('mcp-1'))).toBe(true);
    expect(isMcpSecretKey('mcp-oauth:mcp-1:tokens')).toBe(true);
    expect(isMcpSecretKey('openai')).toBe(false);
    expect(isMcpSecretKey('custom:abc')).toBe(false);
  });
});
