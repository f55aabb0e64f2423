import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tokenize } from './server.mjs';

/** Plain HTTP against the mock, and readers of what it streams: shared by the mock's own tests. */

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  chunks: Buffer[];
  text: string;
  json: unknown;
  aborted: boolean;
}

/**
 * Plain node:http requests to the server at `url()`, to see status, every header and the body's
 * chunks as written.
 */
export function rawRequests(url: () => string) {
  return function raw(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${url()}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        let aborted = false;
        const finish = () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks, text, json, aborted });
        };
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('aborted', () => (aborted = true));
        res.on('error', () => ((aborted = true), finish()));
        res.on('end', finish);
      });
      req.on('error', reject);
      if (body !== undefined) req.write(typeof body === 'string' ? body : JSON.stringify(body));
      req.end();
    });
  };
}

export const userTurn = [{ role: 'user', content: 'Hi' }];
export const openaiHeaders = (key: string) => ({
  authorization: `Bearer ${key}`,
  'content-type': 'application/json',
});
export const anthropicHeaders = (key: string) => ({
  'x-api-key': key,
  'anthropic-version': '2023-06-01',
  'content-type': 'application/json',
});
export const geminiPath = (method = 'generateContent') => `/v1beta/models/gemini-2.5-flash:${method}`;
export const errorMessage = (response: RawResponse) =>
  (response.json as { error: { message: string } }).error.message;

export interface SseEvent {
  name: string;
  data: Record<string, unknown>;
}

/** Named SSE events (Anthropic, Responses): each `event:` line with its parsed `data:` line. */
export function namedEvents(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => ({
      name: /^event: (.+)$/m.exec(block)?.[1] ?? '',
      data: JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>,
    }));
}

/** The JSON `data:` payloads of an SSE body, whatever its line endings. */
export function dataPayloads<T>(text: string): T[] {
  return text
    .split(/\r?\n\r?\n/)
    .flatMap((block) => /^data: (\{.*)$/m.exec(block)?.[1] ?? [])
    .map((json) => JSON.parse(json) as T);
}

/** The reasoning the thinking scenarios send for a question, and the Echo after it. */
export const reasoningFor = (text: string, count: number) =>
  `**Reading the question**\n\nThe user wrote: ${text}. I will echo it back with the message count (${count}).`;
export const hiReasoning = reasoningFor('Hi', 1);
export const hiThoughts = tokenize(hiReasoning).length;
export const hiEcho = 'Echo: Hi (1 message received)';

export interface ChatChunk {
  choices: { delta: { content?: string | null; reasoning?: string }; finish_reason: string | null }[];
  usage?: Record<string, unknown> | null;
  x_groq?: { usage?: Record<string, unknown> };
}

/** One delta field of every chunk, joined. */
export const joined = (chunks: ChatChunk[], field: 'content' | 'reasoning') =>
  chunks.map((chunk) => chunk.choices[0]?.delta[field] ?? '').join('');
