import type { Page } from '@playwright/test';
import { fakeMicrophoneArgs } from '../../tools/fake-microphone.mjs';
import { markdownReply } from '../../tools/mock-providers/server.mjs';
import { spokenQuestion } from '../../tools/mock-providers/voice.mjs';
import { violations } from './axe.ts';
import { chromiumLaunchOptions } from './chromium.ts';
import {
  expect,
  mockConfig,
  mockKey,
  recordedRequests,
  importConversation,
  seedStorage,
  settingsPanel,
  test,
  type ChatPage,
} from './fixtures.ts';

/**
 * Voice with real audio: the browser's microphone is a fake device playing a WAV that espeak-ng
 * speaks the mock's `spokenQuestion` into (half a second of silence, the question, six seconds of
 * silence, looped; tools/fake-microphone.mjs), so the recorder, the level meter and the hands-free
 * talk's voice detection hear real speech. The mock transcribes any real audio as that question.
 */
const launch = chromiumLaunchOptions();
const microphone = fakeMicrophoneArgs();

/** The audio the page plays (read aloud), event by event: media events reach a capturing listener. */
async function recordAudio(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const events: string[] = [];
    (window as unknown as { audioEvents: string[] }).audioEvents = events;
    for (const type of ['playing', 'pause', 'ended', 'error'])
      document.addEventListener(
        type,
        (event) => {
          if (event.target instanceof HTMLAudioElement) events.push(type);
        },
        true,
      );
  });
}

const audioEvents = (page: Page) =>
  page.evaluate(() => (window as unknown as { audioEvents: string[] }).audioEvents);

async function openWith(chat: ChatPage, key: string, extra: Record<string, string> = {}) {
  await seedStorage(chat.page, { 'ai-chat-config': JSON.stringify(mockConfig('openai', key)), ...extra });
  await chat.open();
  await chat.newConversation();
}

test.use({ launchOptions: { ...launch, args: [...launch.args, ...microphone] } });

test.describe('with a microphone', () => {
  test('dictation: recorded with its duration and level, transcribed by OpenAI into the message box, not sent', async ({
    chat,
    page,
  }) => {
    const key = mockKey('ok');
    await openWith(chat, key);
    await page.getByRole('button', { name: 'Dictate' }).click();
    const bar = page.getByRole('group', { name: 'Dictation' });
    await expect(bar.getByRole('status')).toContainText(/Recording\s*0:0\d/);
    // The question is heard: the meter moves.
    await expect
      .poll(async () =>
        Number(await bar.getByRole('meter', { name: 'Microphone level' }).getAttribute('aria-valuenow')),
      )
      .toBeGreaterThan(5);
    await expect(bar.getByRole('status')).toContainText(/Recording\s*0:0[2-9]/);
    await bar.getByRole('button', { name: 'Stop dictation' }).click();
    await expect(chat.composer).toHaveValue(spokenQuestion);
    await expect(bar).toHaveCount(0);
    await expect(chat.composer).toBeFocused();
    await expect(chat.messages()).toHaveCount(0);
    const [upload] = (await recordedRequests(key)).filter(
      (request) => request.path === '/v1/audio/transcriptions',
    );
    expect(upload?.body).toMatchObject({
      model: 'gpt-4o-mini-transcribe',
      response_format: 'json',
      file: { name: 'speech.webm', type: expect.stringMatching(/^audio\/webm/) },
    });
    expect((upload?.body as { file: { size: number } }).file.size).toBeGreaterThan(5000);
  });

  test('dictation by Groq, with the shortcut, joins what was typed; a failed transcription keeps the recording for Retry', async ({
    chat,
    page,
  }) => {
    const groqKey = mockKey('ok');
    await openWith(chat, mockKey('http-401'), {
      'ai-chat-connections': JSON.stringify({ groq: mockConfig('groq', groqKey) }),
      'ai-chat-voice': JSON.stringify({ transcriber: 'groq' }),
    });
    await chat.composer.fill('Tell me:');
    await chat.composer.press('Control+Shift+Space');
    const bar = page.getByRole('group', { name: 'Dictation' });
    await expect(bar.getByRole('status')).toContainText(/Recording\s*0:0[2-9]/);
    await page.keyboard.press('Control+Shift+Space');
    await expect(chat.composer).toHaveValue(`Tell me: ${spokenQuestion}`);
    const [upload] = await recordedRequests(groqKey);
    expect(upload).toMatchObject({
      path: '/openai/v1/audio/transcriptions',
      body: { model: 'whisper-large-v3-turbo' },
    });

    // Now OpenAI, whose key is refused: the recording stays, to retry.
    await page.evaluate(() =>
      localStorage.setItem('ai-chat-voice', JSON.stringify({ transcriber: 'openai' })),
    );
    await page.getByRole('button', { name: 'Dictate' }).click();
    await expect(bar.getByRole('status')).toContainText(/Recording\s*0:0[1-9]/);
    await bar.getByRole('button', { name: 'Stop dictation' }).click();
    await expect(bar.getByRole('alert')).toContainText(/could not be transcribed: 401 · Incorrect API key/);
    await bar.getByRole('button', { name: 'Retry transcription' }).click();
    await expect
      .poll(
        async () =>
          (
            await recordedRequests(
              JSON.parse(await page.evaluate(() => localStorage.getItem('ai-chat-config') ?? '{}'))
                .apiKey as string,
            )
          ).length,
      )
      .toBe(2);
    await bar.getByRole('button', { name: 'Discard recording' }).click();
    await expect(bar).toHaveCount(0);
    await expect(chat.composer).toHaveValue(`Tell me: ${spokenQuestion}`);
  });

  test('hands-free: heard, sent, read aloud, and speaking over the reply interrupts it', async ({
    chat,
    page,
  }) => {
    const key = mockKey('ok');
    await recordAudio(page);
    // Half speed: the reply's audio lasts past the question's next loop, which interrupts it.
    await openWith(chat, key, { 'ai-chat-voice': JSON.stringify({ speed: 0.5 }) });
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { phases: string[] }).phases = seen;
      new MutationObserver(() => {
        const text = document.querySelector(
          '[aria-label="Hands-free conversation"] [role=status]',
        )?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Talk hands-free' }).click();
    const talk = page.getByRole('region', { name: 'Hands-free conversation' });
    await expect(talk.getByRole('status')).toHaveText(/Listening|Hearing you/);
    await expect(talk.getByRole('button', { name: 'Stop' })).toBeFocused();
    expect(await violations(page, '[aria-label="Hands-free conversation"]')).toEqual([]);
    await expect(chat.messages('user')).toHaveText([new RegExp(spokenQuestion.replace('?', '\\?'))]);
    await expect(chat.messages('assistant').first()).toContainText(`Echo: ${spokenQuestion}`);
    // Read aloud, then cut short by the question heard again, which is sent in turn.
    await expect(chat.messages('user')).toHaveCount(2, { timeout: 30_000 });
    const phases = await page.evaluate(() => (window as unknown as { phases: string[] }).phases);
    expect(phases.join(' → ')).toMatch(/Listening….*Hearing you….*Thinking….*Speaking….*Hearing you…/);
    // It played, and was cut short: it never ended. ('playing' comes again after a stall on a
    // busy machine, so it is counted as present, not once.)
    const events = await audioEvents(page);
    expect(events).toContain('playing');
    expect(events).not.toContain('ended');
    const speech = (await recordedRequests(key)).filter((request) => request.path === '/v1/audio/speech');
    expect(speech[0]?.body).toMatchObject({
      model: 'gpt-4o-mini-tts',
      voice: 'coral',
      response_format: 'wav',
      speed: 0.5,
      input: expect.stringContaining(`Echo: ${spokenQuestion}`),
    });
    await talk.getByRole('button', { name: 'Stop' }).click();
    await expect(talk).toHaveCount(0);
    await expect(chat.composer).toBeVisible();
  });
});

test('read aloud: the answer without its code, in pieces, with pause, resume and stop; Gemini too', async ({
  chat,
  page,
}) => {
  const key = mockKey('ok');
  const geminiKey = mockKey('ok');
  await recordAudio(page);
  await openWith(chat, key, {
    'ai-chat-connections': JSON.stringify({ gemini: mockConfig('gemini', geminiKey) }),
  });
  await importConversation(page, markdownReply(600));
  const reply = chat.messages('assistant');
  await reply.hover();
  await reply.getByRole('button', { name: 'Read aloud' }).click();
  const pause = reply.getByRole('button', { name: 'Pause reading' });
  await expect.poll(() => audioEvents(page)).toContain('playing');
  await pause.click();
  await expect(reply.getByRole('button', { name: 'Resume reading' })).toBeVisible();
  expect(await audioEvents(page)).toContain('pause');
  await reply.getByRole('button', { name: 'Resume reading' }).click();
  await expect(pause).toBeVisible();
  await expect
    .poll(async () => (await audioEvents(page)).filter((event) => event === 'playing').length)
    .toBe(2);
  await reply.getByRole('button', { name: 'Stop reading' }).click();
  await expect(reply.getByRole('button', { name: 'Read aloud' })).toBeAttached();
  await expect(page.locator('audio')).toHaveCount(0);

  const pieces = (await recordedRequests(key)).filter((request) => request.path === '/v1/audio/speech');
  // The first piece is short (speech starts soon); the next is asked for while it plays.
  expect(pieces.length).toBeGreaterThanOrEqual(2);
  const first = (pieces[0]?.body as { input: string }).input;
  expect(first.length).toBeLessThanOrEqual(220);
  const said = pieces.map((piece) => (piece.body as { input: string }).input).join(' ');
  expect(said).not.toContain('```');
  expect(said).not.toContain('**');

  // Gemini's voice: PCM made playable.
  // Chosen in Settings → Voice.
  const voice = settingsPanel(page).getByRole('region', { name: 'Voice' });
  await voice.getByLabel('Read aloud with').selectOption('Google Gemini');
  await voice.getByLabel('Voice').selectOption('Puck');
  const before = (await audioEvents(page)).length;
  await reply.hover();
  await reply.getByRole('button', { name: 'Read aloud' }).click();
  await expect.poll(async () => (await audioEvents(page)).slice(before)).toContain('playing');
  await reply.getByRole('button', { name: 'Stop reading' }).click();
  const [spoken] = (await recordedRequests(geminiKey)).filter((request) =>
    request.path.endsWith(':generateContent'),
  );
  expect(spoken?.body).toMatchObject({
    generationConfig: {
      responseModalities: ['AUDIO'],
      speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Puck' } } },
    },
  });
});
