import { Inflate } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deflatedZeros, zipOf } from '../../tools/fixtures/zip-bomb.mjs';
import { readExportZip } from './import-zip.ts';

const MiB = 1024 * 1024;
const conversations = { name: 'conversations.json', data: new TextEncoder().encode('[]') };
/** Small limits, so a test inflates little. */
const limits = { jsonBytes: 4 * MiB, imageBytes: 2 * MiB, imagesTotalBytes: 5 * MiB, projectsBytes: 3 * MiB };

const zipFile = (...entries: Parameters<typeof zipOf>[0]) => new Blob([zipOf(entries)]);

afterEach(() => vi.restoreAllMocks());

describe('readExportZip', () => {
  it('reads conversations.json and the images, inflating nothing else', async () => {
    const image = (name: string) => ({ name, data: new Uint8Array([1, 2, 3]) });
    const inflated = vi.spyOn(Inflate.prototype, 'push');
    const zip = await readExportZip(
      zipFile(
        { name: 'chat.html', data: deflatedZeros(8), unpacked: 8 * MiB },
        { ...conversations, name: 'export/conversations.json' },
        image('file-abc-cat.png'),
        image('notes.png'),
      ),
      limits,
    );
    if (!zip.ok) throw new Error(zip.problem);
    expect(await zip.conversations?.text()).toBe('[]');
    expect([...zip.images.keys()]).toEqual(['file-abc']);
    expect(zip.imagesLeftOut).toEqual({ tooLarge: 0, overTotal: 0 });
    expect(inflated).not.toHaveBeenCalled();
  });

  it('refuses a conversations.json declared larger than its limit without inflating it', async () => {
    const inflated = vi.spyOn(Inflate.prototype, 'push');
    const zip = await readExportZip(
      zipFile({ name: 'conversations.json', data: deflatedZeros(1200), unpacked: 1200 * MiB }),
    );
    expect(zip).toEqual({
      ok: false,
      problem: "The ZIP file's conversations.json is larger than 500 MB unpacked, more than can be read.",
    });
    expect(inflated).not.toHaveBeenCalled();
  });

  it('stops inflating a conversations.json whose header names no size as soon as it passes its limit', async () => {
    const inflated = vi.spyOn(Inflate.prototype, 'push');
    const bomb = deflatedZeros(600);
    const zip = await readExportZip(
      zipFile({ name: 'conversations.json', data: bomb, unpacked: 600 * MiB, streamed: true }),
      limits,
    );
    expect(zip).toEqual({
      ok: false,
      problem: "The ZIP file's conversations.json is larger than 4 MB unpacked, more than can be read.",
    });
    // A few 16 KB slices (each at most about 16 MB unpacked), not the 600 MB's forty.
    expect(inflated.mock.calls.length).toBeLessThan(4);
  });

  const zeros = (name: string, mebibytes: number, streamed = false) => ({
    name,
    data: deflatedZeros(mebibytes),
    unpacked: mebibytes * MiB,
    streamed,
  });

  it('leaves out an image over its limit, declared or found inflating, and counts it; the rest read', async () => {
    const inflated = vi.spyOn(Inflate.prototype, 'push');
    const zip = await readExportZip(
      zipFile(
        zeros('file-declared-800mb.png', 800),
        zeros('file-hidden-800mb.png', 800, true),
        conversations,
        zeros('file-a.png', 2, true),
      ),
      { ...limits, imagesTotalBytes: 100 * MiB },
    );
    if (!zip.ok) throw new Error(zip.problem);
    expect([...zip.images.keys()]).toEqual(['file-a']);
    expect(zip.images.get('file-a')?.blob.size).toBe(2 * MiB);
    expect(zip.imagesLeftOut).toEqual({ tooLarge: 2, overTotal: 0 });
    expect(await zip.conversations?.text()).toBe('[]');
    // Inflated to its end, the hidden 800 MB alone would take fifty 16 KB slices.
    expect(inflated.mock.calls.length).toBeLessThan(8);
  });

  it('leaves out the images past the images’ total, and counts them', async () => {
    const zip = await readExportZip(
      zipFile(
        conversations,
        zeros('file-a.png', 2),
        zeros('file-b.png', 2, true),
        // 4 MB so far: this one passes the 5 MB total as it inflates, the next is not started.
        zeros('file-c.png', 2),
        zeros('file-d.png', 1),
      ),
      limits,
    );
    if (!zip.ok) throw new Error(zip.problem);
    expect([...zip.images.keys()]).toEqual(['file-a', 'file-b']);
    expect(zip.imagesLeftOut).toEqual({ tooLarge: 0, overTotal: 2 });
  });

  it('reads Claude.ai’s projects files (projects.json, or projects/*.json), and leaves out those past their total', async () => {
    const text = (name: string, value: string) => ({ name, data: new TextEncoder().encode(value) });
    const zip = await readExportZip(
      zipFile(
        conversations,
        text('projects.json', '[1]'),
        text('export/projects/Thesis.json', '{"uuid":"t"}'),
        text('projects/notes/deep.json', '{}'),
        text('users.json', '[]'),
      ),
      limits,
    );
    if (!zip.ok) throw new Error(zip.problem);
    expect(await Promise.all(zip.projects.map((blob) => blob.text()))).toEqual(['[1]', '{"uuid":"t"}']);
    expect(zip.projectsLeftOut).toBe(false);

    const over = await readExportZip(
      zipFile(
        conversations,
        zeros('projects/a.json', 2),
        zeros('projects/b.json', 2, true),
        zeros('projects/c.json', 2),
      ),
      limits,
    );
    if (!over.ok) throw new Error(over.problem);
    // 3 MB in all: the second passes it as it inflates, the third is not started.
    expect(over.projects.map((blob) => blob.size)).toEqual([2 * MiB]);
    expect(over.projectsLeftOut).toBe(true);
    expect(await over.conversations?.text()).toBe('[]');
  });

  it('says what is wrong with a ZIP that does not read', async () => {
    const whole = zipOf([{ ...conversations, data: deflatedZeros(2), unpacked: 2 * MiB }]);
    const zip = await readExportZip(new Blob([whole.subarray(0, 500)]), limits);
    expect(zip).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^The ZIP file could not be read: /),
    });
  });
});
