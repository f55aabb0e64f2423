/**
 * A Blob's bytes as base64. In a browser the FileReader encodes them outside JavaScript (a whole
 * history's files go with every turn); elsewhere (tests) in slices small enough for
 * `String.fromCharCode`'s argument limit.
 */
export async function base64Of(blob: Blob): Promise<string> {
  if (typeof FileReader === 'function') {
    const url = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
      reader.readAsDataURL(blob);
    });
    return url.slice(url.indexOf(',') + 1);
  }
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const slice = 0x8000;
  let binary = '';
  for (let start = 0; start < bytes.length; start += slice)
    binary += String.fromCharCode(...bytes.subarray(start, start + slice));
  return btoa(binary);
}

/** Base64 back to a Blob of `type`; throws on text that is not base64. */
export function blobOfBase64(data: string, type: string): Blob {
  return new Blob([bytesOfBase64(data)], { type });
}

/** Bytes as base64 (small values: keys, salts, ciphertexts of a few keys). */
export function base64OfBytes(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Base64 back to bytes; throws on text that is not base64. */
export function bytesOfBase64(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
