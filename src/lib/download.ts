/** Hands text to the browser as a file download. Throws when the browser refuses. */
export function downloadText(fileName: string, text: string, type: string): void {
  downloadBlob(fileName, new Blob([text], { type }));
}

/** Hands bytes to the browser as a file download. Throws when the browser refuses. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // Revoked later: the download reads the URL after this task.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
