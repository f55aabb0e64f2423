import type * as Pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';

let pdfjs: Promise<typeof Pdfjs> | undefined;

/**
 * pdf.js, loaded on first use as its own chunk, with its worker from this origin as the CSP wants.
 * The legacy build: the modern one calls methods only the newest browsers have (2026 baseline).
 */
function loadPdfjs(): Promise<typeof Pdfjs> {
  pdfjs ??= Promise.all([
    import('pdfjs-dist/legacy/build/pdf.mjs'),
    import('pdfjs-dist/legacy/build/pdf.worker.min.mjs?url'),
  ]).then(
    ([library, workerUrl]) => {
      library.GlobalWorkerOptions.workerSrc = workerUrl.default;
      return library;
    },
    (error: unknown) => {
      // A chunk that failed to load (say, offline) is fetched again next time.
      pdfjs = undefined;
      throw error;
    },
  );
  return pdfjs;
}

/**
 * A PDF not read by then never will be (a crafted one can keep pdf.js's worker busy forever): its
 * worker is ended and the file refused. A 500-page report takes a few seconds.
 */
const deadlineMs = 120_000;

/**
 * The text of a PDF, page by page, with a blank line between pages. A scanned PDF has little or
 * none. A failure rejects with a message meant for the user.
 */
export async function extractPdfText(file: Blob): Promise<{ text: string; pages: number }> {
  const { getDocument, PDFWorker } = await loadPdfjs();
  // A worker of its own, to end at once: the document's destroy() asks its worker to stop and
  // waits for an answer that a worker stuck on a crafted file never gives.
  const worker = new PDFWorker();
  const task = getDocument({
    worker,
    // A typed array is handed over to pdf.js's worker, not copied.
    data: new Uint8Array(await file.arrayBuffer()),
    // The CSP allows no eval, and pdf.js fetches nothing: no CMaps, standard fonts or wasm
    // decoders, which matter for drawing pages, not for reading their text; verbosity 0 keeps it
    // from warning that they are missing.
    isEvalSupported: false,
    useWorkerFetch: false,
    useWasm: false,
    disableFontFace: true,
    verbosity: 0,
  });
  const tooLong = new Error('This PDF took too long to read.');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const overdue = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(tooLong), deadlineMs);
  });
  const read = async () => {
    const pdf = await task.promise;
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const { items } = await page.getTextContent();
      pages.push(items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      page.cleanup();
    }
    return { text: pages.map((page) => page.trim()).join('\n\n'), pages: pdf.numPages };
  };
  try {
    return await Promise.race([read(), overdue]);
  } catch (error) {
    if (error === tooLong) throw error;
    const locked = error instanceof Error && error.name === 'PasswordException';
    throw new Error(locked ? 'This PDF is protected by a password.' : 'This PDF could not be read.', {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    worker.destroy();
    void task.destroy();
  }
}
