import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig, type Config } from '../domain/config.ts';
import { fakeLanguageModel } from '../providers/__fixtures__/fake-language-model.ts';
import type { ChatController } from './chat-controller.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** A fresh copy of the module: its status is per page. */
const load = () => import('./device-model.ts');

describe("the browser's model in the settings", () => {
  it('says where it stands, downloads on the click with its progress, then is ready', async () => {
    const fake = fakeLanguageModel({ availability: { text: 'downloadable' }, progress: [0, 0.25, 1] });
    vi.stubGlobal('LanguageModel', fake.api);
    const { deviceModel, deviceModelCanServe } = await load();
    const seen: string[] = [];
    const stop = deviceModel.subscribe(() => {
      const { phase, progress } = deviceModel.get();
      seen.push(progress === null ? phase : `${phase} ${progress}`);
    });
    await deviceModel.check();
    expect(deviceModel.get().phase).toBe('downloadable');
    expect(await deviceModelCanServe()).toBe(true);

    deviceModel.download();
    await vi.waitFor(() => expect(deviceModel.get().phase).toBe('available'));
    expect(seen).toEqual(['downloadable', 'downloading 0', 'downloading 0.25', 'downloading 1', 'available']);
    // The download's session is not kept.
    expect(fake.destroyed()).toBe(1);
    stop();
  });

  it('cannot serve where the browser has no model, or says it is unavailable', async () => {
    const absent = await load();
    expect(await absent.deviceModelCanServe()).toBe(false);
    await absent.deviceModel.check();
    expect(absent.deviceModel.get().phase).toBe('absent');
    vi.resetModules();
    vi.stubGlobal('LanguageModel', fakeLanguageModel({ availability: { text: 'unavailable' } }).api);
    expect(await (await load()).deviceModelCanServe()).toBe(false);
  });

  it('switches the configuration to On this device through Save Configuration, without a key', async () => {
    const { switchToDeviceModel } = await load();
    const saveConfiguration = vi.fn<(config: Config) => string | null>(() => null);
    const chat = {
      store: { getState: () => ({ config: { ...defaultConfig, apiKey: 'sk-x' }, connections: {} }) },
      saveConfiguration,
    } as unknown as Pick<ChatController, 'store' | 'saveConfiguration'>;
    expect(switchToDeviceModel(chat)).toBeNull();
    expect(saveConfiguration).toHaveBeenCalledWith({
      provider: 'device',
      apiKey: '',
      model: 'built-in',
      temperature: defaultConfig.temperature,
      maxTokens: defaultConfig.maxTokens,
    });
  });
});
