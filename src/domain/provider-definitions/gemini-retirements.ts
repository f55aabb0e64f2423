import type { Retirements } from './retirement.ts';

/** What Gemini has retired or will, checked on 2026-11-26; loaded when a list or warning needs it. */
export const geminiRetirements: Retirements = {
  checked: '2026-11-26',
  sources: [
    'https://ai.google.dev/gemini-api/docs/deprecations',
    'https://ai.google.dev/gemini-api/docs/models',
  ],
  shutdowns: { 'gemini-3.1-flash-lite': '2027-05-07' },
  // 2.5 Flash and Pro: new keys get 404 "no longer available to new users"; the sources give
  // four different days. 2.0 Flash: two.
  retired: ['gemini-pro', 'gemini-pro-vision', 'gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.0-flash'],
};
