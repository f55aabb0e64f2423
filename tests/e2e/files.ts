import { encodePng } from '../../tools/png.mjs';

/** Files to attach in tests, built byte by byte: real PNGs and PDFs, nothing downloaded. */

/** A `width`×`height` PNG of one colour (RGB), with an eXIf chunk when `exif` is given. */
export function png(
  width: number,
  height: number,
  rgb: [number, number, number] = [20, 120, 200],
  exif?: Buffer,
): Buffer {
  return encodePng(width, height, () => rgb, { extra: exif ? [['eXIf', exif]] : [] });
}

/** A one-page PDF that shows `text` (Helvetica), with a correct cross-reference table. */
export function pdf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text.replace(/[()\\]/g, '\\$&')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export interface TestFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export const photo: TestFile = { name: 'photo.png', mimeType: 'image/png', buffer: png(64, 48) };
export const report: TestFile = { name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf('Hello PDF') };
export const notes: TestFile = {
  name: 'notes.md',
  mimeType: 'text/markdown',
  buffer: Buffer.from('# Shopping\n\n- milk\n'),
};
