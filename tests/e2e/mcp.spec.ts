import { violations } from './axe.ts';
import type { Page } from '@playwright/test';
import { expect, mockConfig, mockKey, settingsPanel, test, type ChatPage } from './fixtures.ts';
import { appPort, mcpPort, mcpUrl } from './ports.ts';

/**
 * MCP servers connected from the page: the real servers of tools/mcp-servers (the official SDK,
 * one per era, transport, CORS and OAuth case) on loopback, and the mock's `tools` scenario as the
 * model, which calls what the user's recipe names ({"call": …}) and then answers
 * 'Tool results: NAME: CONTENT'. Each test uses its own tag in the server's path, so the
 * requests it made can be read back apart from the other workers'.
 */

interface RecordedMcpRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  rpc: string[];
}

async function mcpRequests(path: string): Promise<RecordedMcpRequest[]> {
  const response = await fetch(`${mcpUrl}/__control/requests?path=${encodeURIComponent(path)}`);
  return (await response.json()) as RecordedMcpRequest[];
}

type Auth = 'None' | 'Bearer token' | 'Custom headers' | 'Sign in (OAuth)';

async function addServer(page: Page, url: string, name: string, auth: Auth = 'None') {
  const panel = settingsPanel(page);
  await panel.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add MCP server' });
  await dialog.getByLabel('Server URL').fill(url);
  await dialog.getByLabel('Name (optional)').fill(name);
  await dialog.getByLabel('Authentication').selectOption(auth);
  await dialog.getByRole('button', { name: 'Add server' }).click();
  await expect(dialog).toHaveCount(0);
}

function serverStatus(page: Page, name: string) {
  return settingsPanel(page).getByRole('listitem', { name }).getByRole('status');
}

async function openWithServer(chat: ChatPage, path: string, name: string) {
  await chat.open(mockConfig('openai', mockKey('tools')));
  await addServer(chat.page, `${mcpUrl}${path}`, name);
  await expect(serverStatus(chat.page, name)).toHaveText(/^Connected with \d+ tools/);
  await chat.newConversation();
}

const recipe = (call: unknown) => JSON.stringify({ call });

function approval(page: Page, tool: string) {
  return page.getByRole('group', { name: `Allow ${tool} to run?` });
}

test('a 2025-11-25 server: connected with its tools, a call allowed once runs there, the card names the server, and a reload keeps it', async ({
  chat,
  page,
}) => {
  const path = '/legacy/mcp/allowed-once';
  await openWithServer(chat, path, 'Test server');
  await expect(serverStatus(page, 'Test server')).toHaveText(/, MCP 2025-11-25\.$/);
  await expect(page.getByRole('button', { name: /^Tools: \d+ on$/ })).toBeVisible();

  await chat.send(recipe({ name: 'add', arguments: { a: 2, b: 3 } }));
  const asking = approval(page, 'add');
  await expect(asking).toContainText('From Test server');
  await asking.getByRole('button', { name: 'Allow once' }).click();
  await chat.waitForReplyDone();
  const reply = chat.messages('assistant').last();
  await expect(reply).toContainText('Tool results: add: 5');
  await expect(reply.getByRole('button', { name: 'Used add (Test server)' })).toBeVisible();

  // The call went to the server in its session.
  const calls = (await mcpRequests(path)).filter((request) => request.rpc.includes('tools/call'));
  expect(calls).toHaveLength(1);
  expect(calls[0]?.headers['mcp-session-id']).toBeTruthy();

  await page.reload();
  await expect(
    chat.messages('assistant').last().getByRole('button', { name: 'Used add (Test server)' }),
  ).toBeVisible();
  await expect(serverStatus(page, 'Test server')).toBeVisible();
});

test('a 2026-07-28 server is spoken to without a handshake, and an old HTTP+SSE server over its transport', async ({
  chat,
  page,
}) => {
  await chat.open(mockConfig('openai', mockKey('tools')));
  const modern = '/modern/mcp/eras';
  await addServer(page, `${mcpUrl}${modern}`, 'Modern');
  await expect(serverStatus(page, 'Modern')).toHaveText(
    /^Connected with \d+ tools and 3 prompts, MCP 2026-07-28\.$/,
  );
  const requests = await mcpRequests(modern);
  expect(requests.flatMap((request) => request.rpc)).not.toContain('initialize');
  expect(requests.some((request) => request.headers['mcp-method'] === 'tools/list')).toBe(true);

  await addServer(page, `${mcpUrl}/sse/eras`, 'Old');
  await expect(serverStatus(page, 'Old')).toHaveText(
    /^Connected with \d+ tools and 3 prompts, MCP [\d-]+ \(HTTP\+SSE\)\.$/,
  );

  // Both offer their tools to a conversation; a call to the modern one names its tool in a header.
  await chat.newConversation();
  await chat.send(recipe({ name: 'echo', arguments: { text: 'hello modern' } }));
  await approval(page, 'echo').getByRole('button', { name: 'Allow once' }).click();
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText('Tool results: echo: hello modern');
  const call = (await mcpRequests(modern)).find((request) => request.headers['mcp-method'] === 'tools/call');
  expect(call?.headers['mcp-name']).toBe('echo');
});

test('a server the browser blocks says what its owner must change', async ({ chat, page }) => {
  await chat.open(mockConfig('openai', mockKey('tools')));
  const fix = `The browser blocked 127.0.0.1:${mcpPort}: the server must allow this origin (http://127.0.0.1:${appPort}) and expose Mcp-Session-Id in its CORS headers.`;
  await addServer(page, `${mcpUrl}/no-cors/mcp/blocked`, 'No CORS');
  await expect(serverStatus(page, 'No CORS')).toHaveText(fix);
  await addServer(page, `${mcpUrl}/hidden-session/mcp/blocked`, 'Hidden session');
  await expect(serverStatus(page, 'Hidden session')).toHaveText(fix);
  // Its tools are offered nowhere, and the composer says none is on.
  await chat.newConversation();
  await expect(page.getByRole('button', { name: 'Tools: off' })).toBeVisible();

  // The servers' rows, a failing one included, pass the accessibility checks in both themes.
  expect(await violations(page, 'section[aria-label="AI Provider Configuration"]')).toEqual([]);
});

test('OAuth: the server asks for a sign-in, the sign-in window approves, and its tools work', async ({
  chat,
  page,
}) => {
  await chat.open(mockConfig('openai', mockKey('tools')));
  await addServer(page, `${mcpUrl}/oauth/mcp/sign-in`, 'Private', 'Sign in (OAuth)');
  await expect(serverStatus(page, 'Private')).toHaveText(/sign in/i);
  const opened = page.waitForEvent('popup');
  await settingsPanel(page).getByRole('button', { name: 'Sign in to Private' }).click();
  const popup = await opened;
  await popup.getByRole('button', { name: 'Approve' }).click();
  await popup.waitForEvent('close');
  await expect(serverStatus(page, 'Private')).toHaveText(/^Connected with \d+ tools/);

  await chat.newConversation();
  await chat.send(recipe({ name: 'echo', arguments: { text: 'signed in' } }));
  await approval(page, 'echo').getByRole('button', { name: 'Allow once' }).click();
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText('Tool results: echo: signed in');
  // The token stays with the keys: a reload connects without asking again.
  await page.reload();
  await expect(serverStatus(page, 'Private')).toHaveText(/^(Not connected yet|Connected with \d+ tools)/);
});

test('a destructive tool never offers Always allow, and Deny tells the model', async ({ chat, page }) => {
  await openWithServer(chat, '/legacy/mcp/destructive', 'Files');
  await chat.send(recipe({ name: 'delete_file', arguments: { path: 'notes.txt' } }));
  const asking = approval(page, 'delete_file');
  await expect(asking.getByRole('button', { name: 'Allow once' })).toBeVisible();
  await expect(asking.getByRole('button', { name: 'Always allow delete_file' })).toHaveCount(0);
  await asking.getByRole('button', { name: 'Deny' }).click();
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText(
    'Tool results: delete_file: The user declined this call.',
  );
});

test('a server that disappears mid-call: the call fails in words and the reply goes on', async ({
  chat,
  page,
}) => {
  await openWithServer(chat, '/legacy/mcp/vanish', 'Flaky');
  await chat.send(recipe('vanish'));
  await approval(page, 'vanish').getByRole('button', { name: 'Allow once' }).click();
  await chat.waitForReplyDone();
  const reply = chat.messages('assistant').last();
  await expect(reply).toContainText('Tool results: vanish:');
  await expect(reply.getByRole('button', { name: 'Used vanish (Flaky), failed' })).toBeVisible();
});

test('tools switched off: a tool for every conversation in settings, a server for one conversation', async ({
  chat,
  page,
}) => {
  await openWithServer(chat, '/legacy/mcp/switches', 'Switches');
  const control = page.getByRole('button', { name: /^Tools: \d+ on$/ });
  const before = Number((await control.getAttribute('aria-label'))?.match(/\d+/)?.[0]);

  const row = settingsPanel(page).getByRole('listitem', { name: 'Switches' });
  await row.getByRole('button', { name: 'Show tools' }).click();
  await row.getByRole('switch', { name: 'Offer delete_file' }).click();
  await expect(row.getByRole('switch', { name: 'Offer delete_file' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await chat.newConversation();
  await expect(page.getByRole('button', { name: `Tools: ${before - 1} on` })).toBeVisible();

  await page.getByRole('button', { name: `Tools: ${before - 1} on` }).click();
  const popover = page.getByRole('dialog', { name: 'Tools' });
  await popover.getByRole('switch', { name: 'Switches' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Tools: off' })).toBeVisible();
});

test('a reload while a call waits for approval keeps the reply, and the next message goes on from it', async ({
  chat,
  page,
}) => {
  await openWithServer(chat, '/legacy/mcp/reload', 'Reloaded');
  await chat.send(recipe({ name: 'echo', arguments: { text: 'never run' } }));
  await expect(approval(page, 'echo')).toBeVisible();
  await page.reload();

  const reply = chat.messages('assistant').last();
  await expect(reply.getByRole('button', { name: 'Called echo (Reloaded), no result' })).toBeVisible();
  expect(
    (await mcpRequests('/legacy/mcp/reload')).filter((request) => request.rpc.includes('tools/call')),
  ).toHaveLength(0);
  // The call without a result is answered for the model, so the provider takes the next turn.
  await chat.send(recipe({ name: 'echo', arguments: { text: 'after reload' } }));
  await approval(page, 'echo').getByRole('button', { name: 'Allow once' }).click();
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText('Tool results: echo: after reload');
});
