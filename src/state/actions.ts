import type { ConversationPlace } from '../domain/conversation.ts';
import { lastReply } from '../domain/conversation-rules.ts';
import type { ChatController } from './chat-controller.ts';
import { isStreamingIn, type ChatState } from './chat-store.ts';

/**
 * What the user can do from anywhere: each action once, run alike by its button, its shortcut and
 * the command palette. An action says when it makes sense (`available`), and the palette and the
 * shortcuts offer it only then.
 */

/** A key with modifiers. `code` is the physical key (KeyboardEvent.code), so layouts agree. */
export interface Shortcut {
  code: string;
  /** Ctrl, or Cmd on macOS. */
  mod?: boolean;
  shift?: boolean;
}

export interface Action {
  id: ActionId;
  title: string;
  /** More words the palette finds it by. */
  keywords?: string;
  shortcut?: Shortcut;
  available(state: ChatState): boolean;
  run(): unknown;
}

export type ActionId =
  | 'palette'
  | 'new-conversation'
  | 'new-project'
  | 'move-to-project'
  | 'search'
  | 'choose-model'
  | 'toggle-theme'
  | 'theme-light'
  | 'theme-dark'
  | 'theme-system'
  | 'toggle-settings'
  | 'import-export'
  | 'export'
  | 'rename'
  | 'delete'
  | 'clear'
  | 'conversation-settings'
  | 'download-markdown'
  | 'pin'
  | 'unpin'
  | 'archive'
  | 'unarchive'
  | 'copy-last-reply'
  | 'copy-last-code'
  | 'regenerate'
  | 'stop'
  | 'focus-composer'
  | 'dictate'
  | 'hands-free'
  | 'shortcuts';

const always = () => true;
const hasConversation = (state: ChatState) => state.activeId !== null;
const replyEnds = (state: ChatState) => {
  const conversation = state.activeId === null ? undefined : state.loaded[state.activeId];
  return conversation !== undefined && lastReply(conversation) !== undefined;
};
/** Where the open conversation sits: pinned, archived, or (null) among the others. */
const placeHere = (state: ChatState) => state.list.find((row) => row.id === state.activeId)?.place ?? null;
const streamingHere = (state: ChatState) => state.activeId !== null && isStreamingIn(state, state.activeId);

/** What the actions read from the screen: the layout and the OS's colour scheme. */
export interface ActionScreen {
  isPhone(): boolean;
  systemDark(): boolean;
}

export function createActions(chat: ChatController, screen: ActionScreen): readonly Action[] {
  const state = chat.store.getState;
  const view = chat.view.getState;
  const dark = () => (state().theme === 'system' ? screen.systemDark() : state().theme === 'dark');
  const active = () => state().activeId;
  const withActive = (run: (id: string) => unknown) => () => {
    const id = active();
    return id === null ? undefined : run(id);
  };
  /** Pinning or archiving the open conversation, and putting it back among the others. */
  const moveTo = (place: ConversationPlace) => ({
    available: (current: ChatState) => hasConversation(current) && placeHere(current) !== place,
    run: withActive((id) => chat.placeConversation(id, place)),
  });
  const moveBack = (place: ConversationPlace) => ({
    available: (current: ChatState) => placeHere(current) === place,
    run: withActive((id) => chat.placeConversation(id, null)),
  });
  return [
    {
      id: 'palette',
      title: 'Command palette',
      shortcut: { code: 'KeyK', mod: true },
      available: always,
      run: () => chat.setOverlay(view().overlay === 'palette' ? null : 'palette'),
    },
    {
      id: 'new-conversation',
      title: 'New conversation',
      keywords: 'chat create start',
      shortcut: { code: 'KeyO', mod: true, shift: true },
      available: always,
      run: () => chat.newConversation(),
    },
    {
      id: 'new-project',
      title: 'New project',
      keywords: 'folder group create',
      available: always,
      run: async () => {
        const id = await chat.createProject();
        if (id) chat.showProjectSettings(id);
      },
    },
    {
      id: 'move-to-project',
      title: 'Move to project…',
      keywords: 'folder group project',
      available: hasConversation,
      run: withActive((id) => chat.showMoveToProject(id)),
    },
    {
      id: 'search',
      title: 'Search conversations',
      keywords: 'find messages text',
      shortcut: { code: 'KeyF', mod: true, shift: true },
      available: always,
      run: () => {
        if (screen.isPhone()) chat.setSheet('sidebar');
        chat.focus('search');
      },
    },
    {
      id: 'choose-model',
      title: 'Choose a model',
      keywords: 'model picker provider switch',
      available: hasConversation,
      run: () => chat.setOverlay('model-picker'),
    },
    {
      id: 'toggle-theme',
      title: 'Toggle theme',
      keywords: 'dark light mode',
      available: always,
      run: () => chat.setTheme(dark() ? 'light' : 'dark'),
    },
    {
      id: 'theme-light',
      title: 'Theme: Light',
      keywords: 'mode appearance',
      available: always,
      run: () => chat.setTheme('light'),
    },
    {
      id: 'theme-dark',
      title: 'Theme: Dark',
      keywords: 'mode appearance',
      available: always,
      run: () => chat.setTheme('dark'),
    },
    {
      id: 'theme-system',
      title: 'Theme: System',
      keywords: 'mode appearance auto os',
      available: always,
      run: () => chat.setTheme('system'),
    },
    {
      id: 'toggle-settings',
      title: 'Toggle the settings panel',
      keywords: 'configuration provider key',
      shortcut: { code: 'KeyS', mod: true, shift: true },
      available: always,
      run: () => {
        if (screen.isPhone()) chat.setSheet(view().sheet === 'settings' ? null : 'settings');
        else chat.setSettingsCollapsed(!view().settingsCollapsed);
      },
    },
    {
      id: 'import-export',
      title: 'Import / Export',
      keywords: 'backup download upload json',
      available: always,
      run: () => chat.setImportExportOpen(true),
    },
    {
      id: 'export',
      title: 'Export data',
      keywords: 'download json backup save conversations',
      available: always,
      // The dialog opens on its Export tab.
      run: () => chat.setImportExportOpen(true),
    },
    {
      id: 'rename',
      title: 'Rename conversation',
      keywords: 'name title',
      available: hasConversation,
      run: () => chat.setOverlay('rename-conversation'),
    },
    {
      id: 'delete',
      title: 'Delete conversation',
      keywords: 'remove trash',
      available: hasConversation,
      // Asks first, with the required words (docs/behaviour.md#sidebar), as the row's button does.
      run: () => chat.setOverlay('delete-conversation'),
    },
    {
      id: 'clear',
      title: 'Clear conversation',
      keywords: 'reset empty erase',
      available: (current) => hasConversation(current) && !streamingHere(current),
      run: withActive((id) => chat.clearConversation(id)),
    },
    {
      id: 'conversation-settings',
      title: 'Conversation settings',
      keywords: 'system prompt reasoning effort',
      available: hasConversation,
      run: () => chat.setOverlay('conversation-settings'),
    },
    {
      id: 'download-markdown',
      title: 'Download as Markdown',
      keywords: 'export save file md',
      available: hasConversation,
      run: withActive((id) => chat.downloadMarkdown(id)),
    },
    { ...moveTo('pinned'), id: 'pin', title: 'Pin conversation', keywords: 'top favourite' },
    { ...moveBack('pinned'), id: 'unpin', title: 'Unpin conversation' },
    { ...moveTo('archived'), id: 'archive', title: 'Archive conversation', keywords: 'hide' },
    { ...moveBack('archived'), id: 'unarchive', title: 'Unarchive conversation', keywords: 'restore' },
    {
      id: 'copy-last-reply',
      title: 'Copy last reply',
      keywords: 'clipboard answer',
      shortcut: { code: 'Semicolon', mod: true, shift: true },
      available: replyEnds,
      run: withActive((id) => chat.copyLastReply(id)),
    },
    {
      id: 'copy-last-code',
      title: 'Copy last code block',
      keywords: 'clipboard snippet',
      shortcut: { code: 'KeyC', mod: true, shift: true },
      available: replyEnds,
      run: withActive((id) => chat.copyLastCode(id)),
    },
    {
      id: 'regenerate',
      title: 'Regenerate last reply',
      keywords: 'retry again',
      available: (current) => replyEnds(current) && current.streaming === null,
      run: withActive((id) => {
        const conversation = state().loaded[id];
        const reply = conversation && lastReply(conversation);
        return reply && chat.regenerate(id, reply.id);
      }),
    },
    {
      id: 'stop',
      title: 'Stop generating',
      keywords: 'cancel abort',
      shortcut: { code: 'Escape' },
      available: streamingHere,
      run: () => chat.stop(),
    },
    {
      id: 'focus-composer',
      title: 'Focus the message box',
      keywords: 'composer input type',
      shortcut: { code: 'Escape', shift: true },
      // While a reply streams in, the box is disabled and cannot take the focus.
      available: (current) => hasConversation(current) && !streamingHere(current),
      run: () => chat.focus('composer'),
    },
    {
      id: 'dictate',
      title: 'Dictate',
      keywords: 'voice microphone speech speak transcribe',
      shortcut: { code: 'Space', mod: true, shift: true },
      // A second press ends the dictation: what was said is transcribed into the message box.
      available: (current) =>
        hasConversation(current) && !streamingHere(current) && view().voice !== 'hands-free',
      run: () => chat.setVoice(view().voice === 'dictation' ? 'dictation-ending' : 'dictation'),
    },
    {
      id: 'hands-free',
      title: 'Talk hands-free',
      keywords: 'voice conversation call speak listen',
      available: (current) => hasConversation(current) && !streamingHere(current),
      run: () => chat.setVoice('hands-free'),
    },
    {
      id: 'shortcuts',
      title: 'Keyboard shortcuts',
      keywords: 'help keys',
      shortcut: { code: 'Slash', mod: true },
      available: always,
      run: () => chat.setOverlay('shortcuts'),
    },
  ];
}

/** Whether a key press is the shortcut. Cmd stands for Ctrl on macOS. */
export function matchesShortcut(
  shortcut: Shortcut,
  event: Pick<KeyboardEvent, 'code' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
  mac: boolean,
): boolean {
  const mod = mac ? event.metaKey : event.ctrlKey;
  const other = mac ? event.ctrlKey : event.metaKey;
  return (
    event.code === shortcut.code &&
    mod === (shortcut.mod ?? false) &&
    event.shiftKey === (shortcut.shift ?? false) &&
    !event.altKey &&
    !other
  );
}

const keyNames: Readonly<Record<string, string>> = {
  Escape: 'Esc',
  Slash: '/',
  Semicolon: ';',
  Space: 'Space',
};

/** How a shortcut is written: 'Ctrl+Shift+O', or '⌘⇧O' on macOS. */
export function shortcutLabel(shortcut: Shortcut, mac: boolean): string {
  const key = keyNames[shortcut.code] ?? shortcut.code.replace(/^Key|^Digit/, '');
  if (mac) return `${shortcut.mod ? '⌘' : ''}${shortcut.shift ? '⇧' : ''}${key}`;
  return [shortcut.mod && 'Ctrl', shortcut.shift && 'Shift', key].filter(Boolean).join('+');
}
