import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A provider whose streamed replies the test writes itself, piece by piece, and holds wherever it
 * wants: what the page shows in the middle of a reply (a formula not closed yet, an open fence, a
 * list scrolled away from) is checked at a known point of the stream, on a fast machine or a slow
 * one, instead of being caught in the few milliseconds a timed stream leaves it on screen.
 *
 * OpenAI's chat completions wire format (server-sent events), on a loopback port of its own: use
 * `config()` as the app's configuration. The mock provider server (tools/mock-providers) covers
 * every other scenario; this one only holds.
 */
export class HeldStream {
  private readonly waiting: ((reply: HeldReply) => void)[] = [];
  private readonly arrived: HeldReply[] = [];
  private readonly open = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<HeldStream> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const held = new HeldStream(server, `http://127.0.0.1:${port}`);
    server.on('request', (request: IncomingMessage, response: ServerResponse) =>
      held.handle(request, response),
    );
    return held;
  }

  /** The app's configuration for this provider (OpenAI, any key). */
  config(): Record<string, unknown> {
    return {
      provider: 'openai',
      apiKey: 'held-key',
      model: 'gpt-4o-mini',
      baseUrl: this.url,
      temperature: 0.7,
      maxTokens: 800,
      topP: 0.95,
      frequencyPenalty: 0,
      presencePenalty: 0,
    };
  }

  /** The next reply the app asks for, once its request has arrived; nothing is sent until told. */
  async nextReply(): Promise<HeldReply> {
    const ready = this.arrived.shift();
    if (ready) return ready;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async stop(): Promise<void> {
    for (const response of this.open) response.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
    };
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'OPTIONS') {
        response.writeHead(204, cors).end();
      } else if (request.method === 'GET' && request.url?.endsWith('/models')) {
        const data = [{ id: 'gpt-4o-mini', object: 'model', created: 1721172741, owned_by: 'system' }];
        response.writeHead(200, { ...cors, 'content-type': 'application/json' });
        response.end(JSON.stringify({ object: 'list', data }));
      } else if (request.method === 'POST' && request.url?.endsWith('/chat/completions')) {
        response.writeHead(200, {
          ...cors,
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
        });
        response.flushHeaders();
        this.open.add(response);
        response.on('error', () => undefined);
        response.on('close', () => this.open.delete(response));
        const reply = new HeldReply(response, JSON.parse(Buffer.concat(chunks).toString('utf8')));
        const waiter = this.waiting.shift();
        if (waiter) waiter(reply);
        else this.arrived.push(reply);
      } else {
        response.writeHead(404, cors).end();
      }
    });
  }
}

/** One streamed reply: its request's body, and the text written so far. */
export class HeldReply {
  private readonly id = `chatcmpl-held${Math.random().toString(36).slice(2, 10)}`;
  private started = false;

  constructor(
    private readonly response: ServerResponse,
    readonly body: unknown,
  ) {}

  private frame(delta: Record<string, unknown>, finish: string | null): void {
    // The app may have stopped reading (Stop, a deleted conversation): the rest goes nowhere.
    if (this.response.destroyed || this.response.writableEnded) return;
    const chunk = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: 1756000000,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    };
    this.response.write(`data: ${JSON.stringify(chunk)}\n\n`);
  }

  /** Writes `text` as one piece of the reply. */
  send(text: string): void {
    if (!this.started) this.frame({ role: 'assistant', content: '' }, null);
    this.started = true;
    this.frame({ content: text }, null);
  }

  /** Ends the reply as a model does when it has said everything. */
  end(): void {
    this.frame({}, 'stop');
    if (!this.response.destroyed && !this.response.writableEnded) this.response.end('data: [DONE]\n\n');
  }
}
