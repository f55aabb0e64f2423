import { describe, expect, it } from 'vitest';
import { attachment } from './__fixtures__/conversations.ts';
import {
  attachmentDelivery,
  attachmentKind,
  base64Size,
  fileAsText,
  formatBytes,
  sendProblem,
} from './attachments.ts';

describe('attachments', () => {
  it.each([
    ['image/png', 'a.png', 'image'],
    ['image/heic', 'IMG_1.heic', 'image'],
    ['image/svg+xml', 'logo.svg', 'text'],
    ['application/pdf', 'r.pdf', 'pdf'],
    ['', 'scan.PDF', 'pdf'],
    ['text/markdown', 'n.md', 'text'],
    ['application/json', 'data', 'text'],
    ['', 'main.rs', 'text'],
    ['', 'Makefile', 'text'],
    ['application/zip', 'a.zip', null],
    ['application/octet-stream', 'photo.raw', null],
  ])('%s %s is %s', (type, name, kind) => {
    expect(attachmentKind(type, name)).toBe(kind);
  });

  it('says sizes as people read them, and base64 sizes as sent', () => {
    expect([
      formatBytes(12),
      formatBytes(2048),
      formatBytes(5 * 1024 * 1024),
      formatBytes(1.25 * 1024 * 1024),
    ]).toEqual(['12 bytes', '2 KB', '5 MB', '1.3 MB']);
    expect([base64Size(1), base64Size(3), base64Size(4)]).toEqual([4, 4, 8]);
  });

  it('sends each kind as the model takes it', () => {
    const sees = { images: true, pdfs: false };
    expect(['image', 'pdf', 'text'].map((kind) => attachmentDelivery(kind as never, sees))).toEqual([
      'native',
      'text',
      'text',
    ]);
    expect(attachmentDelivery('image', { images: false, pdfs: true })).toBe('refused');
  });

  it('names a file in its text, never letting the name close the tag', () => {
    expect(fileAsText('a"b\nc.md', 'x')).toBe('<file name="a_b_c.md">\nx\n</file>');
  });

  it('refuses an image for a blind model, and more bytes than a request takes, counting the path', () => {
    const target = { capabilities: { images: true, pdfs: true }, model: 'm', label: 'P', maxFileBytes: 100 };
    expect(sendProblem([attachment('a', { size: 30 })], [attachment('b', { size: 30 })], target)).toBeNull();
    expect(sendProblem([attachment('a', { size: 60 })], [attachment('b', { size: 30 })], target)).toBe(
      'Too large to send: the files in this conversation come to 120 bytes, and P takes at most 100 bytes per request.',
    );
    expect(
      sendProblem([attachment('a')], [], { ...target, capabilities: { images: false, pdfs: true } }),
    ).toBe('m does not see images. Remove a.png, or choose a model that does.');
    // Text (and a PDF sent as text) does not count against the file limit.
    const asText = attachment('t', { kind: 'pdf', size: 1000 });
    expect(sendProblem([asText], [], { ...target, capabilities: { images: true, pdfs: false } })).toBeNull();
  });
});
