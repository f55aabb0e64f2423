import type { Retirements } from './retirement.ts';

/** What OpenAI has retired or will, checked on 2026-11-26; loaded when a list or warning needs it. */
export const openaiRetirements: Retirements = {
  checked: '2026-11-26',
  sources: [
    'https://platform.openai.com/docs/deprecations',
    'https://github.com/openai/openai-node/blob/master/src/resources/shared.ts (ChatModel)',
  ],
  // The deprecations page; OpenAI's e-mails said 2026-12-10 for the gpt-5 minis and o3. The
  // live list's shutdown_date overrules these.
  shutdowns: {
    'gpt-5.1': '2027-04-01',
    'gpt-4.1': '2027-01-14',
    'gpt-4.1-mini': '2027-01-14',
    'gpt-4o': '2027-01-14',
    'gpt-4o-mini': '2027-01-14',
    'gpt-5-mini': '2026-12-11',
    o3: '2026-12-11',
    'gpt-4-turbo-preview': '2026-10-23',
    'gpt-4': '2026-10-23',
    'gpt-3.5-turbo': '2026-10-23',
    'o4-mini': '2026-10-23',
  },
  retired: ['gpt-3.5-turbo-16k'],
};
