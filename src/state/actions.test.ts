import { describe, expect, it, vi } from 'vitest';
import { linearConversation } from '../domain/__fixtures__/conversations.ts';
import { createActions, matchesShortcut, shortcutLabel, type ActionId } from './actions.ts';
import type { ChatController } from './chat-controller.ts';
import { createChatStore, type ChatState } from './chat-store.ts';
import { createViewStore, type ViewState } from './view-store.ts';

/** The registry over a real store; the controller's commands it calls are spies. */
function registry(
  state: Partial<ChatState> = {},
  screen = { isPhone: false, systemDark: false },
  shown: Partial<ViewState> = {},
) {
  const store = createChatStore();
  store.setState(state);
  const view = createViewStore();
  view.setState(shown);
  const chat = {
    store,
    view,
    setTheme: vi.fn(),
    setOverlay: vi.fn(),
    setSheet: vi.fn(),
    setSettingsCollapsed: vi.fn(),
    focus: vi.fn(),
    regenerate: vi.fn(),
    copyLastCode: vi.fn(),
    stop: vi.fn(),
    clearConversation: vi.fn(),
  };
  const actions = createActions(chat as unknown as ChatController, {
    isPhone: () => screen.isPhone,
    systemDark: () => screen.systemDark,
  });
  const action = (id: ActionId) => {
    const found = actions.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`no action ${id}`);
    return found;
  };
  const available = () =>
    actions.filter((candidate) => candidate.available(store.getState())).map((candidate) => candidate.id);
  return { chat, store, action, available };
}

const withReply = linearConversation('c', ['Question', 'Answer with ```js\nx()\n```']);

describe('actions', () => {
  it('offers the reply actions only when the active path ends with a reply, and Stop only while streaming', () => {
    const empty = registry({ activeId: 'c', loaded: { c: linearConversation('c') } });
    expect(empty.available()).not.toContain('copy-last-reply');
    expect(empty.available()).not.toContain('regenerate');
    expect(empty.available()).not.toContain('stop');

    const done = registry({ activeId: 'c', loaded: { c: withReply } });
    expect(done.available()).toEqual(
      expect.arrayContaining(['copy-last-reply', 'copy-last-code', 'regenerate']),
    );

    const streaming = registry({
      activeId: 'c',
      loaded: { c: withReply },
      streaming: { conversationId: 'c', messageIds: ['c:2'] },
    });
    expect(streaming.available()).toContain('stop');
    expect(streaming.available()).not.toContain('regenerate');
  });

  it('with no conversation open, offers neither the model picker nor the composer', () => {
    const none = registry({ activeId: null });
    expect(none.available()).not.toContain('choose-model');
    expect(none.available()).not.toContain('focus-composer');
    expect(none.available()).toContain('new-conversation');
  });

  it('acts on the open conversation: Clear at once (it has Undo), Delete and Rename by asking first', async () => {
    const { chat, action, available } = registry({ activeId: 'c', loaded: { c: withReply } });
    expect(available()).toEqual(
      expect.arrayContaining(['rename', 'delete', 'clear', 'conversation-settings']),
    );
    await action('clear').run();
    expect(chat.clearConversation).toHaveBeenCalledWith('c');
    action('delete').run();
    expect(chat.setOverlay).toHaveBeenLastCalledWith('delete-conversation');
    action('rename').run();
    expect(chat.setOverlay).toHaveBeenLastCalledWith('rename-conversation');
    action('conversation-settings').run();
    expect(chat.setOverlay).toHaveBeenLastCalledWith('conversation-settings');

    const streaming = registry({
      activeId: 'c',
      loaded: { c: withReply },
      streaming: { conversationId: 'c', messageIds: ['c:2'] },
    });
    expect(streaming.available()).not.toContain('clear');
    expect(registry({ activeId: null }).available()).not.toContain('delete');
  });

  it('regenerates the reply ending the path, and copies from the active conversation', async () => {
    const { chat, action } = registry({ activeId: 'c', loaded: { c: withReply } });
    await action('regenerate').run();
    expect(chat.regenerate).toHaveBeenCalledWith('c', 'c:2');
    await action('copy-last-code').run();
    expect(chat.copyLastCode).toHaveBeenCalledWith('c');
  });

  it('toggles the theme from the one in effect, the OS deciding for "system"', () => {
    const systemDark = registry({ theme: 'system' }, { isPhone: false, systemDark: true });
    systemDark.action('toggle-theme').run();
    expect(systemDark.chat.setTheme).toHaveBeenCalledWith('light');
    const light = registry({ theme: 'light' });
    light.action('toggle-theme').run();
    expect(light.chat.setTheme).toHaveBeenCalledWith('dark');
  });

  it('toggles the settings panel, or its sheet on a phone; search opens the sidebar there; the palette opens and closes', () => {
    const desktop = registry({}, undefined, { settingsCollapsed: false });
    desktop.action('toggle-settings').run();
    expect(desktop.chat.setSettingsCollapsed).toHaveBeenCalledWith(true);
    const phone = registry({}, { isPhone: true, systemDark: false }, { sheet: 'settings' });
    phone.action('toggle-settings').run();
    expect(phone.chat.setSheet).toHaveBeenCalledWith(null);
    phone.action('search').run();
    expect(phone.chat.setSheet).toHaveBeenLastCalledWith('sidebar');
    expect(phone.chat.focus).toHaveBeenCalledExactlyOnceWith('search');
    desktop.action('search').run();
    expect(desktop.chat.setSheet).not.toHaveBeenCalled();
    expect(desktop.chat.focus).toHaveBeenCalledExactlyOnceWith('search');
    const open = registry({}, undefined, { overlay: 'palette' });
    open.action('palette').run();
    expect(open.chat.setOverlay).toHaveBeenCalledWith(null);
  });
});

describe('shortcuts', () => {
  const key = (
    code: string,
    mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {},
  ) => ({
    code,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...mods,
  });

  it('match Ctrl, or Cmd on macOS, with exactly the modifiers given', () => {
    const newChat = { code: 'KeyO', mod: true, shift: true };
    expect(matchesShortcut(newChat, key('KeyO', { ctrlKey: true, shiftKey: true }), false)).toBe(true);
    expect(matchesShortcut(newChat, key('KeyO', { metaKey: true, shiftKey: true }), true)).toBe(true);
    expect(matchesShortcut(newChat, key('KeyO', { metaKey: true, shiftKey: true }), false)).toBe(false);
    expect(matchesShortcut(newChat, key('KeyO', { ctrlKey: true }), false)).toBe(false);
    expect(
      matchesShortcut(newChat, key('KeyO', { ctrlKey: true, shiftKey: true, altKey: true }), false),
    ).toBe(false);
    expect(matchesShortcut({ code: 'Escape' }, key('Escape', { shiftKey: true }), false)).toBe(false);
  });

  it('are written as each platform writes them', () => {
    expect(shortcutLabel({ code: 'KeyO', mod: true, shift: true }, false)).toBe('Ctrl+Shift+O');
    expect(shortcutLabel({ code: 'KeyO', mod: true, shift: true }, true)).toBe('⌘⇧O');
    expect(shortcutLabel({ code: 'Slash', mod: true }, false)).toBe('Ctrl+/');
    expect(shortcutLabel({ code: 'Escape' }, false)).toBe('Esc');
  });
});
