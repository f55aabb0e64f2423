/** Hands text to the browser as a file download. Throws when the browser refuses. */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // Revoked later: the download reads the URL after this task.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
