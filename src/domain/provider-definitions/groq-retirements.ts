import type { Retirements } from './retirement.ts';

/** What Groq has retired or will, checked on 2026-11-26; loaded when a list or warning needs it. */
export const groqRetirements: Retirements = {
  checked: '2026-11-26',
  sources: ['https://console.groq.com/docs/deprecations', 'https://console.groq.com/docs/models'],
  shutdowns: {
    'llama-3.3-70b-versatile': '2026-08-16',
    'llama-3.1-8b-instant': '2026-08-16',
    'qwen/qwen3-32b': '2026-07-17',
    'meta-llama/llama-4-scout-17b-16e-instruct': '2026-07-17',
  },
  retired: ['mixtral-8x7b-32768', 'llama2-70b-4096', 'gemma-7b-it'],
};
