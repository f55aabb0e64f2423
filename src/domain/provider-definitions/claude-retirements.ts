import type { Retirements } from './retirement.ts';

/** What Anthropic has retired or will, checked on 2026-11-26; loaded when a list or warning needs it. */
export const claudeRetirements: Retirements = {
  checked: '2026-11-26',
  sources: [
    'https://platform.claude.com/docs/en/about-claude/model-deprecations',
    'https://github.com/anthropics/anthropic-sdk-typescript/blob/main/src/resources/messages/messages.ts (Model)',
  ],
  shutdowns: {
    'claude-3-sonnet-20240229': '2025-07-21',
    'claude-3-opus-20240229': '2026-01-05',
    'claude-3-haiku-20240307': '2026-04-20',
  },
  retired: ['claude-2.1', 'claude-2.0'],
};
