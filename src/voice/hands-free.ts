import { lastReply } from '../domain/conversation-rules.ts';
import { messageText, type Message } from '../domain/conversation.ts';
import { createVoiceActivity } from '../domain/voice-activity.ts';
import { transcriberOf } from '../domain/voice-settings.ts';
import { describeProviderError, isProviderError } from '../providers/provider-error.ts';
import { chat } from '../state/chat.ts';
import { isStreamingIn, type ChatState } from '../state/chat-store.ts';
import { loadVoiceSettings } from '../storage/voice-settings-store.ts';
import { listenWithBrowser, type BrowserRecognition } from './browser-speech.ts';
import { noTranscriber } from './dictation.ts';
import { MicrophoneProblem, openMicrophone, type Microphone } from './microphone.ts';
import { readAloud, stopReading } from './read-aloud.ts';
import { voiceConnection, voiceKeys, voiceMeans } from './voice-means.ts';
import { transcribe } from './voice-requests.ts';

/**
 * The hands-free talk: listen, hear the end of what was said (voice activity, in the browser),
 * transcribe it, send it, read the reply aloud, listen again. Speaking while a reply is read stops
 * the reading and is heard as the next question. With the browser's own recognition, the browser
 * hears the end itself (and a reply is not interrupted: it listens only between replies).
 */
export type TalkPhase = 'starting' | 'listening' | 'hearing' | 'thinking' | 'speaking';

export interface TalkEvents {
  phase(phase: TalkPhase): void;
  /** What went wrong, in one sentence; the talk goes on listening where it can, or ends (`fatal`). */
  problem(problem: string, fatal: boolean): void;
  /** What the user was heard saying. */
  heard(text: string): void;
}

export interface HandsFree {
  level(): number;
  stop(): void;
}

/**
 * The reply to the question about to be sent, once it has streamed and ended; null when the
 * question failed (or the talk stopped). Watched from before the send, so no change is missed.
 */
function replyOf(conversationId: string, signal: AbortSignal): Promise<Message | null> {
  const earlierFailure = chat.store.getState().failedTurn;
  let started = false;
  return new Promise((resolve) => {
    const settle = (state: ChatState) => {
      if (signal.aborted) return finish(null);
      if (isStreamingIn(state, conversationId)) return void (started = true);
      if (started) {
        const conversation = state.loaded[conversationId];
        finish((conversation && lastReply(conversation)) ?? null);
      } else if (state.failedTurn !== earlierFailure && state.failedTurn?.conversationId === conversationId)
        finish(null);
    };
    const unsubscribe = chat.store.subscribe(settle);
    signal.addEventListener('abort', () => finish(null));
    function finish(reply: Message | null) {
      unsubscribe();
      resolve(reply);
    }
  });
}

export function startHandsFree(conversationId: string, events: TalkEvents): HandsFree {
  const settings = loadVoiceSettings();
  const transcriber = transcriberOf(settings, voiceMeans(voiceKeys(chat.store.getState())));
  const controller = new AbortController();
  const { signal } = controller;
  let microphone: Microphone | null = null;
  let recognition: BrowserRecognition | null = null;
  let phase: TalkPhase = 'starting';
  let timer: ReturnType<typeof setInterval> | undefined;
  const enter = (next: TalkPhase) => {
    phase = next;
    if (!signal.aborted) events.phase(next);
  };
  const problemOf = (error: unknown) =>
    error instanceof MicrophoneProblem
      ? error.message
      : isProviderError(error)
        ? describeProviderError(error)
        : String(error);

  /** Sends what was said and reads the reply; false when the talk cannot go on. */
  async function answer(text: string): Promise<void> {
    events.heard(text);
    enter('thinking');
    const replied = replyOf(conversationId, signal);
    if (!(await chat.send(text))) {
      events.problem('The message could not be sent: see the conversation for why.', false);
      return;
    }
    const reply = await replied;
    if (signal.aborted) return;
    if (!reply || messageText(reply).trim() === '') {
      events.problem('No reply came: the conversation says why.', false);
      return;
    }
    enter('speaking');
    // Recording from here: speaking over the reply is the next question.
    microphone?.record();
    await readAloud(reply.id, messageText(reply));
  }

  async function withProvider(mic: Microphone, from: 'openai' | 'groq') {
    const activity = createVoiceActivity();
    const listen = () => {
      activity.reset();
      mic.record();
      enter('listening');
    };
    const ended = async () => {
      enter('thinking');
      const audio = await mic.stop();
      const connection = voiceConnection(chat.store.getState(), from);
      try {
        if (!connection) throw new Error(noTranscriber);
        const text = await transcribe(audio, from, connection, settings, signal);
        if (text) await answer(text);
      } catch (error) {
        if (!signal.aborted)
          events.problem(`What you said could not be transcribed: ${problemOf(error)}`, false);
      }
      // Interrupted, the reading stopped while the next question is already being heard.
      if (!signal.aborted && phase !== 'hearing') listen();
    };
    listen();
    timer = setInterval(() => {
      const event = activity.push(mic.level(), performance.now());
      if (event === 'speech-start' && (phase === 'listening' || phase === 'speaking')) {
        if (phase === 'speaking') stopReading();
        enter('hearing');
      } else if (event === 'speech-end' && phase === 'hearing') void ended();
    }, 50);
  }

  function withBrowser() {
    const listen = () => {
      enter('listening');
      recognition = listenWithBrowser({
        untilPause: true,
        onHeard: (text) => text && enter('hearing'),
        onEnd: (result) => {
          if (signal.aborted) return;
          if ('problem' in result) return events.problem(result.problem, true);
          void (result.text ? answer(result.text) : Promise.resolve()).then(() => {
            if (!signal.aborted) listen();
          });
        },
      });
    };
    listen();
  }

  if (transcriber === null) events.problem(noTranscriber, true);
  else if (transcriber === 'browser') withBrowser();
  else
    openMicrophone().then(
      (opened) => {
        if (signal.aborted) return opened.close();
        microphone = opened;
        void withProvider(opened, transcriber);
      },
      (error: unknown) => events.problem(problemOf(error), true),
    );

  return {
    level: () => microphone?.level() ?? 0,
    stop() {
      controller.abort();
      clearInterval(timer);
      stopReading();
      recognition?.cancel();
      microphone?.close();
      microphone = null;
    },
  };
}
