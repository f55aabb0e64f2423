import { describe, expect, it } from 'vitest';
import {
  anthropicHeaders,
  dataPayloads,
  errorMessage,
  namedEvents,
  openaiHeaders,
  rawRequests,
  type SseEvent,
} from './raw-client.ts';
import { mockProvidersForThisFile } from './use-mock.ts';

const mock = mockProvidersForThisFile({ tokenDelayMs: 0 });
const raw = rawRequests(() => mock().url);

const question = [{ role: 'user', content: 'What is the tallest mountain?' }];
const echo = 'Echo: What is the tallest mountain? (1 message received)';

/** The fixed answer, as the report and the UI tests quote it. */
const everest =
  'Mount Everest (Sagarmāthā) 🏔 is the tallest mountain above sea level: its summit stands at 8,849 m.';
const maunaKea =
  'Measured from its base on the ocean floor, Mauna Kea in Hawaiʻi is taller, at about 10,210 m.';
const chimborazo =
  "Chimborazo in Ecuador, though lower than Everest, has the summit farthest from Earth's centre.";
const answer = `${everest} ${maunaKea} ${chimborazo}`;
const pages = {
  everest: {
    url: 'https://example.com/mountains/everest',
    title: 'Mount Everest: The Highest Mountain on Earth',
  },
  maunaKea: { url: 'https://example.org/volcanoes/mauna-kea', title: 'Mauna Kea, Tallest from Base to Peak' },
  chimborazo: {
    url: 'https://example.net/andes/chimborazo',
    title: "Chimborazo, the Summit Farthest from Earth's Centre",
  },
};
const queries = ['tallest mountain in the world', "Chimborazo farthest point from Earth's centre"];
const link = (domain: string, url: string) => `([${domain}](${url}?utm_source=openai))`;
const openaiText = [
  `${everest.replace(' 🏔', '')} ${link('example.com', pages.everest.url)}`,
  `${maunaKea} ${link('example.org', pages.maunaKea.url)}`,
  `${chimborazo} ${link('example.net', pages.chimborazo.url)}`,
].join(' ');

interface UrlCitation {
  type: string;
  start_index: number;
  end_index: number;
  title: string;
  url: string;
}

describe('OpenAI Responses web search', () => {
  const responses = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/v1/responses', openaiHeaders(key), { model: 'gpt-5', input: question, ...body });
  const searching = { tools: [{ type: 'web_search' }], include: ['web_search_call.action.sources'] };
  const itemsOf = (events: SseEvent[]) =>
    events
      .filter((event) => event.name === 'response.output_item.done')
      .map((event) => event.data.item as Record<string, unknown>);

  it('streams reasoning and web_search_call items, each call in_progress → searching → completed, then the message', async () => {
    const events = namedEvents((await responses('search.r1', { ...searching, stream: true })).text);
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_, index) => index));
    expect(events.every((event) => event.data.type === event.name)).toBe(true);
    const items = itemsOf(events);
    expect(items.map((item) => item.type)).toEqual([
      'reasoning',
      'web_search_call',
      'reasoning',
      'web_search_call',
      'reasoning',
      'web_search_call',
      'reasoning',
      'message',
    ]);
    const calls = items.filter((item) => item.type === 'web_search_call');
    expect(calls.map((call) => call.action)).toEqual([
      {
        type: 'search',
        query: queries[0],
        sources: [
          { type: 'url', url: pages.everest.url },
          { type: 'url', url: pages.maunaKea.url },
        ],
      },
      { type: 'search', query: queries[1], sources: [{ type: 'url', url: pages.chimborazo.url }] },
      { type: 'open_page', url: pages.everest.url },
    ]);
    for (const call of calls) {
      expect(call).toMatchObject({ id: expect.stringMatching(/^ws_[0-9a-f]{48}$/), status: 'completed' });
      const own = events.filter(
        (event) =>
          event.data.item_id === call.id || (event.data.item as { id?: string } | undefined)?.id === call.id,
      );
      expect(own.map((event) => event.name)).toEqual([
        'response.output_item.added',
        'response.web_search_call.in_progress',
        'response.web_search_call.searching',
        'response.web_search_call.completed',
        'response.output_item.done',
      ]);
      expect(own[0]?.data.item).toEqual({ id: call.id, type: 'web_search_call', status: 'in_progress' });
      const outputIndex = own[0]?.data.output_index;
      for (const event of own.slice(1, 4))
        expect(event.data).toEqual({
          type: event.name,
          sequence_number: expect.any(Number),
          output_index: outputIndex,
          item_id: call.id,
        });
    }
    expect(events.at(-1)?.name).toBe('response.completed');
  });

  it('annotates the inline links: each url_citation covers its `([domain](url))` exactly, added right after the delta that completes it', async () => {
    const events = namedEvents((await responses('search.r2', { ...searching, stream: true })).text);
    const messageEvents = events.slice(
      events.findIndex((event) => event.name === 'response.content_part.added'),
    );
    let text = '';
    const added: UrlCitation[] = [];
    for (const [index, event] of messageEvents.entries()) {
      if (event.name === 'response.output_text.delta') text += String(event.data.delta);
      if (event.name !== 'response.output_text.annotation.added') continue;
      const annotation = event.data.annotation as UrlCitation;
      expect(event.data).toMatchObject({ content_index: 0, annotation_index: added.length });
      // The delta just before completed the span; the text so far did not hold it whole before that delta.
      const before = messageEvents[index - 1];
      expect(['response.output_text.delta', 'response.output_text.annotation.added']).toContain(before?.name);
      expect(text.length).toBeGreaterThanOrEqual(annotation.end_index);
      const lastDelta = messageEvents
        .slice(0, index)
        .findLast((e) => e.name === 'response.output_text.delta');
      expect(text.length - String(lastDelta?.data.delta).length).toBeLessThan(annotation.end_index);
      added.push(annotation);
    }
    expect(text).toBe(openaiText);
    expect(added).toEqual([
      expect.objectContaining({
        type: 'url_citation',
        title: pages.everest.title,
        url: `${pages.everest.url}?utm_source=openai`,
      }),
      expect.objectContaining({
        title: pages.maunaKea.title,
        url: `${pages.maunaKea.url}?utm_source=openai`,
      }),
      expect.objectContaining({
        title: pages.chimborazo.title,
        url: `${pages.chimborazo.url}?utm_source=openai`,
      }),
    ]);
    expect(added.map((a) => text.slice(a.start_index, a.end_index))).toEqual([
      link('example.com', pages.everest.url),
      link('example.org', pages.maunaKea.url),
      link('example.net', pages.chimborazo.url),
    ]);
    expect(added[0]).toMatchObject({ start_index: 98, end_index: 170 });
    const partDone = events.find((event) => event.name === 'response.content_part.done')?.data.part;
    expect(partDone).toEqual({ type: 'output_text', annotations: added, logprobs: [], text });
    const message = itemsOf(events).at(-1) as { content: unknown[] };
    expect(message.content).toEqual([partDone]);
    const completed = events.at(-1)?.data.response as { output: { type: string; content?: unknown[] }[] };
    expect(completed.output.at(-1)?.content).toEqual([partDone]);
    expect(events.find((event) => event.name === 'response.output_text.done')?.data).toMatchObject({ text });
  });

  it('without the include, the search actions have no sources; the tool is echoed with its defaults', async () => {
    const response = await responses('search.r3', { tools: [{ type: 'web_search' }] });
    const body = response.json as { tools: unknown[]; output: { type: string; action?: unknown }[] };
    expect(body.output.filter((item) => item.type === 'web_search_call').map((item) => item.action)).toEqual([
      { type: 'search', query: queries[0] },
      { type: 'search', query: queries[1] },
      { type: 'open_page', url: pages.everest.url },
    ]);
    expect(body.tools).toEqual([
      {
        type: 'web_search',
        filters: null,
        search_context_size: 'medium',
        user_location: { type: 'approximate', city: null, country: 'US', region: null, timezone: null },
      },
    ]);
    const message = body.output.at(-1) as unknown as {
      content: { text: string; annotations: UrlCitation[] }[];
    };
    expect(message.content[0]?.text).toBe(openaiText);
    expect(message.content[0]?.annotations).toHaveLength(3);
  });

  it('takes the dated and preview tool types, and Azure’s v1 path', async () => {
    for (const type of ['web_search_2025_08_26', 'web_search_preview', 'web_search_preview_2025_03_11']) {
      const response = await responses('search.r4', { tools: [{ type, search_context_size: 'low' }] });
      expect(response.status).toBe(200);
      expect((response.json as { output: { type: string }[] }).output[1]?.type).toBe('web_search_call');
    }
    const azure = await raw(
      'POST',
      '/openai/v1/responses',
      { 'api-key': 'search.r4', 'content-type': 'application/json' },
      { model: 'gpt-5', input: question, tools: [{ type: 'web_search' }] },
    );
    expect((azure.json as { output: { type: string }[] }).output.map((item) => item.type)).toContain(
      'web_search_call',
    );
  });

  it('refuses bad options and minimal reasoning effort with a web search tool', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ tools: [{ type: 'web_search', size: 'big' }] }, "Unknown parameter: 'tools[0].size'."],
      [
        { tools: [{ type: 'web_search', search_context_size: 'huge' }] },
        "Invalid value: 'huge'. Supported values are: 'low', 'medium', and 'high'.",
      ],
      [
        { tools: [{ type: 'web_search_preview', filters: { allowed_domains: ['a.com'] } }] },
        "Unknown parameter: 'tools[0].filters'.",
      ],
      [
        { tools: [{ type: 'web_search' }], reasoning: { effort: 'minimal' } },
        "The following tools cannot be used with reasoning.effort 'minimal': web_search.",
      ],
    ];
    for (const [body, message] of cases) {
      const response = await responses('search.r5', body);
      expect(response.status).toBe(400);
      expect(errorMessage(response)).toBe(message);
    }
    const filtered = await responses('search.r5', {
      tools: [
        { type: 'web_search', filters: { allowed_domains: ['example.com'] }, external_web_access: false },
      ],
    });
    expect(filtered.status).toBe(200);
  });

  it('history with store false: the output items go back as they came (or the message alone) with the next question', async () => {
    const first = (await responses('search.r7', { ...searching, store: false })).json as {
      output: unknown[];
    };
    const next = { role: 'user', content: 'And the second tallest?' };
    for (const input of [
      [...question, ...first.output, next],
      [...question, first.output.at(-1), next],
    ]) {
      const response = await responses('search.r7', { ...searching, store: false, input });
      expect(response.status).toBe(200);
    }
  });

  it('without the tool, the plain Echo: nothing search-like', async () => {
    const response = await responses('search.r6', { stream: true });
    const events = namedEvents(response.text);
    expect(response.text).not.toMatch(/web_search|annotation\.added|url_citation/);
    const completed = events.at(-1)?.data.response as {
      output: { type: string; content?: { text: string; annotations: unknown[] }[] }[];
    };
    expect(completed.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(completed.output[1]?.content?.[0]).toMatchObject({ text: echo, annotations: [] });
  });
});

describe('OpenAI Chat Completions search models', () => {
  const chat = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/v1/chat/completions', openaiHeaders(key), { messages: question, ...body });
  interface Chunk {
    choices: {
      delta: { content?: string; annotations?: { type: string; url_citation: UrlCitation }[] };
      finish_reason: string | null;
    }[];
  }

  it('gpt-4o-search-preview: the text, then a chunk with the annotations, then the finish', async () => {
    const chunks = dataPayloads<Chunk>(
      (await chat('search.c1', { model: 'gpt-4o-search-preview', web_search_options: {}, stream: true }))
        .text,
    );
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe(openaiText);
    const at = chunks.findIndex((chunk) => chunk.choices[0]?.delta.annotations);
    expect(chunks[at]?.choices[0]?.delta).toEqual({ annotations: expect.any(Array) });
    expect(chunks.slice(at + 1).every((chunk) => !chunk.choices[0]?.delta.content)).toBe(true);
    expect(chunks[at + 1]?.choices[0]?.finish_reason).toBe('stop');
    const citations = chunks[at]?.choices[0]?.delta.annotations ?? [];
    expect(citations.map((c) => c.type)).toEqual(['url_citation', 'url_citation', 'url_citation']);
    expect(citations.map(({ url_citation: c }) => text.slice(c.start_index, c.end_index))).toEqual([
      link('example.com', pages.everest.url),
      link('example.org', pages.maunaKea.url),
      link('example.net', pages.chimborazo.url),
    ]);
  });

  it('not streamed: message.annotations; another model answers the plain Echo', async () => {
    const searched = await chat('search.c2', { model: 'gpt-4o-mini-search-preview' });
    const message = (searched.json as { choices: { message: { content: string; annotations: unknown[] } }[] })
      .choices[0]?.message;
    expect(message?.content).toBe(openaiText);
    expect(message?.annotations).toEqual([
      {
        type: 'url_citation',
        url_citation: {
          end_index: 170,
          start_index: 98,
          title: pages.everest.title,
          url: `${pages.everest.url}?utm_source=openai`,
        },
      },
      expect.objectContaining({ type: 'url_citation' }),
      expect.objectContaining({ type: 'url_citation' }),
    ]);
    const plain = await chat('search.c2', { model: 'gpt-4o' });
    expect((plain.json as { choices: { message: unknown }[] }).choices[0]?.message).toMatchObject({
      content: echo,
      annotations: [],
    });
  });
});

describe('Anthropic web search', () => {
  const tool = { type: 'web_search_20250305', name: 'web_search' };
  const claude = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/v1/messages', anthropicHeaders(key), {
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      messages: question,
      tools: [tool],
      ...body,
    });
  interface Block {
    type: string;
    id?: string;
    text?: string;
    tool_use_id?: string;
    input?: unknown;
    content?: unknown;
    citations?: { type: string; url: string; title: string; cited_text: string; encrypted_index: string }[];
  }
  interface Message {
    content: Block[];
    stop_reason: string;
    usage: { server_tool_use?: { web_search_requests: number; web_fetch_requests: number } };
  }
  const messageOf = (response: { json: unknown }) => response.json as Message;
  const textOf = (content: Block[]) => content.map((block) => block.text ?? '').join('');

  it('streams server_tool_use (input in pieces, the first empty), the whole result in its start, then text blocks, citations before their text', async () => {
    const events = namedEvents((await claude('search.a1', { stream: true })).text);
    const starts = events.filter((event) => event.name === 'content_block_start');
    expect(starts.map((event) => (event.data.content_block as Block).type)).toEqual([
      'server_tool_use',
      'web_search_tool_result',
      'server_tool_use',
      'web_search_tool_result',
      'text',
      'text',
      'text',
      'text',
      'text',
      'text',
    ]);
    expect(starts.map((event) => event.data.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const use = starts[0]?.data.content_block as Block;
    expect(use).toEqual({
      type: 'server_tool_use',
      id: expect.stringMatching(/^srvtoolu_01\w{22}$/),
      name: 'web_search',
      input: {},
    });
    const deltasAt = (index: number) =>
      events
        .filter((event) => event.name === 'content_block_delta' && event.data.index === index)
        .map(
          (event) =>
            event.data.delta as { type: string; partial_json?: string; text?: string; citation?: unknown },
        );
    const json = deltasAt(0);
    expect(json[0]).toEqual({ type: 'input_json_delta', partial_json: '' });
    expect(json.length).toBeGreaterThan(2);
    expect(json.map((delta) => delta.partial_json).join('')).toBe(`{"query": "${queries[0]}"}`);
    const result = starts[1]?.data.content_block as Block;
    expect(result).toEqual({
      type: 'web_search_tool_result',
      tool_use_id: use.id,
      content: [
        {
          type: 'web_search_result',
          ...pages.everest,
          encrypted_content: expect.stringMatching(/^Ev/),
          page_age: 'April 30, 2025',
        },
        {
          type: 'web_search_result',
          ...pages.maunaKea,
          encrypted_content: expect.stringMatching(/^Ev/),
          page_age: 'March 2, 2024',
        },
      ],
    });
    expect(deltasAt(1)).toEqual([]);
    expect(
      (starts[3]?.data.content_block as { content: { page_age: unknown }[] }).content[0]?.page_age,
    ).toBeNull();
    // Uncited blocks start plain; cited ones with empty citations, their citations_delta first.
    expect(starts[4]?.data.content_block).toEqual({ type: 'text', text: '' });
    expect(starts[5]?.data.content_block).toEqual({ citations: [], type: 'text', text: '' });
    const cited = deltasAt(9);
    expect(cited.slice(0, 2).map((delta) => delta.type)).toEqual(['citations_delta', 'citations_delta']);
    expect(cited.slice(2).every((delta) => delta.type === 'text_delta')).toBe(true);
    expect(cited[0]?.citation).toEqual({
      type: 'web_search_result_location',
      cited_text:
        "Because Earth bulges at the equator, Chimborazo's summit is the point farthest from its centre.",
      ...pages.chimborazo,
      encrypted_index: expect.stringMatching(/^Eo/),
    });
    const text = events
      .filter((event) => event.name === 'content_block_delta')
      .map((event) => (event.data.delta as { text?: string }).text ?? '')
      .join('');
    expect(text).toBe(`Based on the search results, ${answer}`);
    const delta = events.find((event) => event.name === 'message_delta')?.data;
    expect(delta).toMatchObject({
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { server_tool_use: { web_search_requests: 2, web_fetch_requests: 0 } },
    });
    expect(events.at(-1)?.name).toBe('message_stop');
  });

  it('not streamed: the same blocks, cited text blocks with their citations', async () => {
    const message = messageOf(await claude('search.a2', {}));
    expect(message.content.map((block) => block.type)).toEqual([
      'server_tool_use',
      'web_search_tool_result',
      'server_tool_use',
      'web_search_tool_result',
      'text',
      'text',
      'text',
      'text',
      'text',
      'text',
    ]);
    expect(message.content[0]).toMatchObject({ input: { query: queries[0] } });
    expect(message.content[4]).toEqual({ type: 'text', text: 'Based on the search results, ' });
    expect(message.content[5]?.citations?.map((citation) => citation.url)).toEqual([pages.everest.url]);
    expect(message.content[9]?.citations?.map((citation) => citation.url)).toEqual([
      pages.chimborazo.url,
      pages.everest.url,
    ]);
    expect(textOf(message.content)).toBe(`Based on the search results, ${answer}`);
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 2, web_fetch_requests: 0 });
  });

  it('search-failed (and max_uses 1): the second search is a web_search_tool_result_error in a 200; its sentence is uncited', async () => {
    for (const [key, body] of [
      ['search-failed.a3', {}],
      ['search.a3', { tools: [{ ...tool, max_uses: 1 }] }],
    ] as const) {
      const response = await claude(key, body);
      expect(response.status).toBe(200);
      const message = messageOf(response);
      expect(message.content[3]).toEqual({
        type: 'web_search_tool_result',
        tool_use_id: message.content[2]?.id,
        content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
      });
      const last = message.content.at(-1);
      expect(last?.citations).toBeUndefined();
      expect(last?.text).toMatch(/search limit was reached/);
      expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
    }
  });

  it('search-pause: pause_turn after the first search; sent back as it came, the turn continues from there', async () => {
    const paused = messageOf(await claude('search-pause.a4', {}));
    expect(paused.stop_reason).toBe('pause_turn');
    expect(paused.content.map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result']);
    expect(paused.usage.server_tool_use?.web_search_requests).toBe(1);
    const continued = await claude('search-pause.a4', {
      messages: [...question, { role: 'assistant', content: paused.content }],
      stream: true,
    });
    expect(continued.status).toBe(200);
    const events = namedEvents(continued.text);
    const starts = events.filter((event) => event.name === 'content_block_start');
    expect(starts.map((event) => (event.data.content_block as Block).type).slice(0, 3)).toEqual([
      'server_tool_use',
      'web_search_tool_result',
      'text',
    ]);
    expect(starts[0]?.data.index).toBe(0);
    const json = events
      .filter((event) => event.name === 'content_block_delta' && event.data.index === 0)
      .map((event) => (event.data.delta as { partial_json: string }).partial_json)
      .join('');
    expect(json).toBe(`{"query": "${queries[1]}"}`);
    expect(events.find((event) => event.name === 'message_delta')?.data).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 } },
    });
  });

  it('a continuation is refused when its search blocks come back changed or missing', async () => {
    const paused = messageOf(await claude('search-pause.a5', {}));
    const [use, result] = paused.content as [Block, Block & { content: Record<string, unknown>[] }];
    const altered = {
      ...result,
      content: [{ ...result.content[0], encrypted_content: 'EvTampered' }, result.content[1]],
    };
    const cases: [unknown[], string][] = [
      [
        [use, altered],
        'messages.1.content.1.content.0: Invalid `encrypted_content` in `web_search_result` block',
      ],
      [
        [use, { ...result, content: [{ ...result.content[0], title: 'Another title' }] }],
        'messages.1.content.1.content.0: Invalid `encrypted_content` in `web_search_result` block',
      ],
      [
        [result],
        `messages.1.content.0: unexpected \`tool_use_id\` found in \`web_search_tool_result\` blocks: ${String(use.id)}. Each \`web_search_tool_result\` block must have a corresponding \`server_tool_use\` block before it.`,
      ],
      [[{ type: 'text', text: 'I searched.' }], 'messages.1: this continues a paused turn'],
    ];
    for (const [content, message] of cases) {
      const response = await claude('search-pause.a5', {
        messages: [...question, { role: 'assistant', content }],
      });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(errorMessage(response)).toContain(message);
    }
  });

  it('history: a searched turn goes back whole or as its text alone; changed citations or a lone server_tool_use are refused', async () => {
    const first = messageOf(await claude('search.a6', {}));
    const next = { role: 'user', content: 'And the second tallest?' };
    const whole = await claude('search.a6', {
      messages: [...question, { role: 'assistant', content: first.content }, next],
    });
    expect(whole.status).toBe(200);
    const textOnly = await claude('search.a6', {
      messages: [...question, { role: 'assistant', content: textOf(first.content) }, next],
    });
    expect(textOnly.status).toBe(200);
    const changed = first.content.map((block) =>
      block.citations
        ? { ...block, citations: block.citations.map((c) => ({ ...c, cited_text: 'Something else.' })) }
        : block,
    );
    const refused = await claude('search.a6', {
      messages: [...question, { role: 'assistant', content: changed }, next],
    });
    expect(refused.status).toBe(400);
    expect(errorMessage(refused)).toBe(
      'messages.1.content.5.text.citations.0: Invalid `encrypted_index` in `web_search_result_location` citation',
    );
    const lone = await claude('search.a6', {
      messages: [
        ...question,
        { role: 'assistant', content: [first.content[0], { type: 'text', text: 'Hm.' }] },
        next,
      ],
    });
    expect(lone.status).toBe(400);
    expect(errorMessage(lone)).toMatch(
      /^messages\.1: `server_tool_use` ids were found without `web_search_tool_result`/,
    );
  });

  it('checks the tool definition', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { ...tool, allowed_domains: ['example.com'], blocked_domains: ['example.org'] },
        'tools.0.web_search_20250305: Cannot specify both allowed_domains and blocked_domains in the same request.',
      ],
      [{ ...tool, name: 'search' }, "tools.0.web_search_20250305.name: Input should be 'web_search'"],
      [{ ...tool, max_uses: 0 }, 'tools.0.web_search_20250305.max_uses: Input should be greater than 0'],
    ];
    for (const [definition, message] of cases) {
      const response = await claude('search.a7', { tools: [definition] });
      expect(response.status).toBe(400);
      expect(errorMessage(response)).toBe(message);
    }
    for (const type of ['web_search_20260209', 'web_search_20260318']) {
      const response = await claude('search.a7', {
        tools: [
          {
            type,
            name: 'web_search',
            allowed_domains: ['example.com'],
            user_location: { type: 'approximate', city: 'Quito' },
          },
        ],
      });
      expect(response.status).toBe(200);
    }
  });

  it('search-disabled: a 400 invalid_request_error for a request with the tool; without it, the Echo', async () => {
    const refused = await claude('search-disabled.a8', {});
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(errorMessage(refused)).toMatch(
      /web search is not enabled for this organization.*admin.*Console.*Privacy/is,
    );
    const plain = messageOf(await claude('search-disabled.a8', { tools: undefined }));
    expect(plain.content).toEqual([{ type: 'text', text: echo }]);
  });

  it('without the tool, the plain Echo: nothing search-like', async () => {
    const response = await claude('search.a9', { tools: undefined, stream: true });
    expect(response.text).not.toMatch(/server_tool_use|web_search|citations/);
    const text = namedEvents(response.text)
      .map((event) => (event.data.delta as { text?: string } | undefined)?.text ?? '')
      .join('');
    expect(text).toBe(echo);
  });
});

describe('Gemini grounding with Google Search', () => {
  const gemini = (key: string, method: string, body: Record<string, unknown>) =>
    raw(
      'POST',
      `/v1beta/models/gemini-2.5-flash:${method}${method === 'streamGenerateContent' ? '?alt=sse' : ''}`,
      { 'x-goog-api-key': key, 'content-type': 'application/json' },
      { contents: [{ role: 'user', parts: [{ text: question[0]?.content }] }], ...body },
    );
  interface Support {
    segment: { startIndex?: number; endIndex: number; text: string };
    groundingChunkIndices: number[];
    confidenceScores: number[];
  }
  interface Grounding {
    webSearchQueries: string[];
    searchEntryPoint: { renderedContent: string };
    groundingChunks: { web: { uri: string; title: string } }[];
    groundingSupports: Support[];
  }
  interface Candidate {
    content: { parts: { text: string }[] };
    finishReason?: string;
    groundingMetadata?: Grounding;
  }

  it('streams plain text parts; the groundingMetadata comes with the last chunk, its offsets UTF-8 bytes', async () => {
    const chunks = dataPayloads<{ candidates: Candidate[] }>(
      (await gemini('search.g1', 'streamGenerateContent', { tools: [{ googleSearch: {} }] })).text,
    );
    expect(chunks.length).toBeGreaterThan(3);
    const candidates = chunks.map((chunk) => chunk.candidates[0]);
    expect(
      candidates.slice(0, -1).every((candidate) => !candidate?.groundingMetadata && !candidate?.finishReason),
    ).toBe(true);
    const last = candidates.at(-1);
    expect(last?.finishReason).toBe('STOP');
    const text = candidates
      .map((candidate) => candidate?.content.parts.map((part) => part.text).join(''))
      .join('');
    expect(text).toBe(answer);
    const grounding = last?.groundingMetadata as Grounding;
    expect(grounding.webSearchQueries).toEqual(queries);
    expect(grounding.groundingChunks.map((chunk) => chunk.web.title)).toEqual([
      'example.com',
      'example.org',
      'example.net',
    ]);
    for (const chunk of grounding.groundingChunks)
      expect(chunk.web.uri).toMatch(
        /^https:\/\/vertexaisearch\.cloud\.google\.com\/grounding-api-redirect\/AUZI/,
      );
    expect(grounding.searchEntryPoint.renderedContent).toMatch(
      /^<style>[\s\S]*<a class="chip" href="https:\/\/www\.google\.com\/search\?q=tallest\+mountain\+in\+the\+world/,
    );
    const supports = grounding.groundingSupports;
    expect(supports.map((support) => support.groundingChunkIndices)).toEqual([[0], [1], [2, 0]]);
    expect(supports.map((support) => support.confidenceScores.length)).toEqual([1, 1, 2]);
    expect(supports[0]?.segment).not.toHaveProperty('startIndex');
    const bytes = Buffer.from(text, 'utf8');
    for (const { segment } of supports)
      expect(bytes.subarray(segment.startIndex ?? 0, segment.endIndex).toString('utf8')).toBe(segment.text);
    expect(supports.map((support) => support.segment.text)).toEqual([everest, maunaKea, chimborazo]);
    // Byte offsets are not character offsets here: 'ā', '🏔' and 'ʻ' come before the later segments.
    expect(supports[1]?.segment.startIndex).toBe(Buffer.byteLength(`${everest} `));
    expect(supports[1]?.segment.startIndex).not.toBe(`${everest} `.length);
    expect(supports[2]?.segment.startIndex).not.toBe(text.indexOf(chimborazo));
  });

  it('not streamed: the candidate carries the grounding; snake_case google_search works too', async () => {
    const response = await gemini('search.g2', 'generateContent', { tools: [{ google_search: {} }] });
    const candidate = (response.json as { candidates: Candidate[] }).candidates[0];
    expect(candidate?.content.parts).toEqual([{ text: answer }]);
    expect(candidate?.groundingMetadata?.groundingSupports).toHaveLength(3);
  });

  it('refuses the legacy googleSearchRetrieval tool on Gemini 2', async () => {
    const response = await gemini('search.g3', 'generateContent', { tools: [{ googleSearchRetrieval: {} }] });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      error: {
        code: 400,
        message: 'google_search_retrieval is not supported; please use google_search field instead.',
        status: 'INVALID_ARGUMENT',
      },
    });
  });

  it('without the tool, the plain Echo: nothing search-like', async () => {
    const response = await gemini('search.g4', 'streamGenerateContent', {});
    expect(response.text).not.toMatch(/grounding/i);
    const text = dataPayloads<{ candidates: Candidate[] }>(response.text)
      .map((chunk) => chunk.candidates[0]?.content.parts.map((part) => part.text).join(''))
      .join('');
    expect(text).toBe(echo);
  });
});

describe('Groq compound web search', () => {
  const groq = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/openai/v1/chat/completions', openaiHeaders(key), { messages: question, ...body });
  interface Tool {
    index: number;
    type: string;
    arguments: string;
    output: string;
    search_results: { results: { title: string; url: string; content: string; score: number }[] };
  }
  interface Chunk {
    choices: {
      delta: { content?: string; reasoning?: string; executed_tools?: Tool[] };
      finish_reason: string | null;
    }[];
  }

  it('groq/compound streams reasoning, each search whole in executed_tools, then the answer', async () => {
    const chunks = dataPayloads<Chunk>(
      (await groq('search.q1', { model: 'groq/compound', stream: true })).text,
    );
    const deltas = chunks.map((chunk) => chunk.choices[0]?.delta ?? {});
    const kinds = deltas.map((delta) =>
      delta.executed_tools ? 'tool' : delta.reasoning ? 'reasoning' : delta.content ? 'content' : 'other',
    );
    const firstTool = kinds.indexOf('tool');
    expect(kinds.slice(1, firstTool).every((kind) => kind === 'reasoning')).toBe(true);
    expect(kinds.lastIndexOf('tool')).toBeLessThan(kinds.indexOf('content'));
    const tools = deltas.flatMap((delta) => delta.executed_tools ?? []);
    expect(tools.map((tool) => [tool.index, tool.type, JSON.parse(tool.arguments)])).toEqual([
      [0, 'search', { query: queries[0] }],
      [1, 'search', { query: queries[1] }],
    ]);
    expect(tools[0]?.search_results.results.map((result) => result.url)).toEqual([
      pages.everest.url,
      pages.maunaKea.url,
    ]);
    expect(tools[0]?.search_results.results[0]).toEqual({
      ...pages.everest,
      content: expect.any(String),
      score: 0.93,
    });
    expect(tools[0]?.output).toContain(`URL: ${pages.everest.url}`);
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe(answer);
    expect(deltas.map((delta) => delta.reasoning ?? '').join('')).toMatch(/^\*\*Searching the web\*\*/);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('compound-mini searches once; not streamed, the message has executed_tools; another model, the Echo', async () => {
    const reply = await groq('search.q2', { model: 'groq/compound-mini' });
    const message = (
      reply.json as { choices: { message: { content: string; reasoning: string; executed_tools: Tool[] } }[] }
    ).choices[0]?.message;
    expect(message?.content).toBe(answer);
    expect(message?.reasoning).toEqual(expect.any(String));
    expect(message?.executed_tools.map((tool) => tool.index)).toEqual([0]);
    const plain = await groq('search.q2', { model: 'llama-3.3-70b-versatile', stream: true });
    expect(plain.text).not.toMatch(/executed_tools|search_results/);
    expect(
      dataPayloads<Chunk>(plain.text)
        .map((chunk) => chunk.choices[0]?.delta.content ?? '')
        .join(''),
    ).toBe(echo);
  });
});
