// A PDF as a reader gets it: read back with pdf.js, each page's text, and a page's QR code decoded by
// jsQR from the page as pdf.js paints it — what a phone's camera sees on paper. Shared by the
// server's tests of the letters and the browser test of the console, which reads the PDF the browser
// was given; its own entry (`@concierge/test-support/pdf-reader`), so that no other test loads pdf.js.
import { createCanvas } from '@napi-rs/canvas';
import jsQR from 'jsqr';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The document, read whole; the caller ends it with closePdf when done (pdf.js keeps its pages). */
export async function readPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  return getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
}

export function closePdf(pdf: PDFDocumentProxy): Promise<void> {
  return pdf.loadingTask.destroy();
}

/** The page's text in reading order, its lines joined by `separator`. */
export async function textOf(pdf: PDFDocumentProxy, pageNumber: number, separator = ' '): Promise<string> {
  const { items } = await (await pdf.getPage(pageNumber)).getTextContent();
  return items.map((item) => ('str' in item ? item.str + (item.hasEOL ? separator : '') : '')).join('');
}

/**
 * What jsQR reads in the page painted at 108 dpi: about 3 pixels a module, where it reads every
 * letter's code. Its time grows with the pixels: at 144 dpi a page took 180 ms, a quarter of a console
 * walk's CPU in the browser tests; at 108 dpi 95 ms (at 72 dpi, 2 pixels a module, 57 ms, but with
 * no room left for a code that is printed a little smaller).
 */
export async function qrCodeOf(pdf: PDFDocumentProxy, pageNumber: number): Promise<string | undefined> {
  const page = await pdf.getPage(pageNumber);
  const viewport = page.getViewport({ scale: 1.5 });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  // pdf.js paints on @napi-rs/canvas in Node itself; its types name the DOM's canvas, absent here.
  await page.render({ canvas: null, canvasContext: context as never, viewport }).promise;
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
  return jsQR(pixels.data, pixels.width, pixels.height)?.data;
}
