// Print-ready registration letters (issue 30): one A4 page per unit of a batch, each in the unit's
// language and the tenant's brand, for the office to post. pdfkit lays out and writes the PDF (chosen
// by measurement over @react-pdf/renderer: docs/decisions.md), resvg rasterises the tenant's SVG
// logo once per batch, and qrcode gives the QR code's modules, drawn as vector squares so that they
// print sharp at any resolution. The fonts (IBM Plex) are embedded, so that every name prints as
// written — ä, é, ç, « », and č, ł, ş of names from anywhere — whatever the reader's viewer has.
import { createRequire } from 'node:module';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  contrastRatio,
  fillPlaceholders,
  type Language,
  normaliseRegistrationCode,
  type TenantContact,
  writtenDate,
} from '@concierge/contracts';
import type { Resvg } from '@resvg/resvg-js';
import type { QRCode } from 'qrcode';
import { lastValidDay } from '../invitation-expiry';
import { LETTER_TEXTS, type LetterTexts } from './letter-texts';

export interface LetterUnit {
  unit: string;
  /** The recipient as the office wrote it; null when the letter goes to whoever lives in the unit. */
  name: string | null;
  language: Language;
  /** The registration code; printed lower case in its five groups. */
  code: string;
  /** The link to /register with the code (mail/links.ts registerLink): printed in full and as QR code. */
  registerUrl: string;
}

/** The tenant's logo as its file holds it: SVG source text, or a PNG or JPEG image. */
export type LetterLogo = { svg: string } | { image: Buffer; type: 'png' | 'jpeg' };

export interface LetterBrand {
  displayName: string;
  /** `#rrggbb`: the heading and the rules, when it reads on white. */
  primaryColor: string;
  logo: LetterLogo;
  /** The property manager's contact, at the foot of every letter; none when absent. */
  contact?: TenantContact;
}

export interface LetterBatch {
  building: string;
  /** When the codes stop registering, exclusive (as registration_codes.expires_at); null: never. */
  expiresAt: Date | null;
}

export interface LettersInput {
  brand: LetterBrand;
  batch: LetterBatch;
  units: readonly LetterUnit[];
  /** The date the letters carry; today when not given. */
  date?: Date;
}

/** PDF points per millimetre: the layout below is in millimetres, as a letter is specified. */
const MM = 72 / 25.4;
const LEFT = 20 * MM;
const WIDTH = 170 * MM;
/** Nothing is drawn below this, so no text ever spills onto a page of its own. */
const BOTTOM = 287 * MM;
const TEXT_COLOUR = '#212529';
const MUTED_COLOUR = '#495057';
/** The accent when the brand's colour does not reach 4.5:1 on white. */
const DARK_GREY = '#343a40';
const TINT = '#f1f3f5';
const HAIRLINE = '#ced4da';
/** The logo's raster height: 600 px over its at most 18 mm is about 850 dpi, sharp in print. */
const LOGO_PIXELS = 600;

const resolveFile = createRequire(import.meta.url).resolve;
const FONTS = {
  sans: resolveFile('@expo-google-fonts/ibm-plex-sans/400Regular/IBMPlexSans_400Regular.ttf'),
  sansBold: resolveFile('@expo-google-fonts/ibm-plex-sans/600SemiBold/IBMPlexSans_600SemiBold.ttf'),
  mono: resolveFile('@expo-google-fonts/ibm-plex-mono/400Regular/IBMPlexMono_400Regular.ttf'),
  monoBold: resolveFile('@expo-google-fonts/ibm-plex-mono/600SemiBold/IBMPlexMono_600SemiBold.ttf'),
} as const;

type Document = PDFKit.PDFDocument;

interface Libraries {
  PDFDocument: typeof import('pdfkit');
  Resvg: typeof Resvg;
  qrCodeOf: (url: string) => QRCode;
}

let libraries: Promise<Libraries> | undefined;

/**
 * pdfkit, resvg and qrcode, loaded on the first batch rather than at the server's start: together
 * 36 MiB of memory and 0.3 s that every instance would pay for what an office asks for a few times
 * a month. A failed load is tried again on the next batch.
 */
function loadLibraries(): Promise<Libraries> {
  libraries ??= Promise.all([import('pdfkit'), import('@resvg/resvg-js'), import('qrcode')]).then(
    ([pdfkit, resvg, qrcode]) => ({
      PDFDocument: pdfkit.default,
      Resvg: resvg.Resvg,
      // Error correction Q (25 %): a letter gets folded into its envelope, and a fold or a stain
      // may cross the code.
      qrCodeOf: (url) => qrcode.default.create(url, { errorCorrectionLevel: 'Q' }),
    }),
    (error: unknown) => {
      libraries = undefined;
      throw error;
    },
  );
  return libraries;
}

/** What one page needs, everything already decided. */
interface Letter {
  unit: LetterUnit;
  code: string;
  texts: LetterTexts;
  date: string;
  /** The last day the code registers, written in the page's language; none when it never expires. */
  lastDay: string | undefined;
  brand: LetterBrand;
  building: string;
  logo: string;
  accent: string;
  qrCode: QRCode;
}

/** The batch's letters as one PDF, a page per unit in the order given. */
export async function renderLetters(input: LettersInput): Promise<Buffer> {
  if (input.units.length === 0) throw new RangeError('a batch of letters needs at least one unit');
  // Every code is checked before any page is drawn: a letter with a wrong code must not go out.
  const codes = input.units.map((unit) => {
    const code = normaliseRegistrationCode(unit.code);
    if (code === undefined) throw new Error(`the code of unit "${unit.unit}" is no registration code`);
    return code;
  });
  const { PDFDocument, Resvg, qrCodeOf } = await loadLibraries();
  const logo = logoImage(Resvg, input.brand.logo);
  const accent =
    contrastRatio(input.brand.primaryColor, '#ffffff') >= 4.5 ? input.brand.primaryColor : DARK_GREY;
  const date = input.date ?? new Date();
  const lastDay = input.batch.expiresAt && lastValidDay(input.batch.expiresAt);

  const doc = new PDFDocument({
    autoFirstPage: false,
    info: { Title: `${input.brand.displayName} – ${input.batch.building}`, Author: input.brand.displayName },
  });
  const chunks: Uint8Array[] = [];
  const written = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const [name, file] of Object.entries(FONTS)) doc.registerFont(name, file);

  for (const [index, unit] of input.units.entries()) {
    drawLetter(doc, {
      unit,
      code: codes[index]!,
      texts: LETTER_TEXTS[unit.language],
      date: writtenDate(date, unit.language),
      lastDay: lastDay ? writtenDate(lastDay, unit.language) : undefined,
      brand: input.brand,
      building: input.batch.building,
      logo,
      accent,
      qrCode: qrCodeOf(unit.registerUrl),
    });
    // A page is about 10 ms of CPU, a building's batch seconds: the server answers others in between.
    await nextTurn();
  }
  doc.end();
  return written;
}

/**
 * The logo as a data URL, an SVG rasterised once per batch. pdfkit keeps an image given as a string
 * in its registry, so the PDF holds it once and every page refers to it (a Buffer it would embed on
 * every page). Text in an SVG logo is set in the letter's fonts: the server has no others, and
 * output must not depend on what a machine has installed.
 */
function logoImage(Rasteriser: typeof Resvg, logo: LetterLogo): string {
  if ('image' in logo) return `data:image/${logo.type};base64,${logo.image.toString('base64')}`;
  const png = new Rasteriser(logo.svg, {
    fitTo: { mode: 'height', value: LOGO_PIXELS },
    font: {
      loadSystemFonts: false,
      fontFiles: [FONTS.sans, FONTS.sansBold, FONTS.mono],
      defaultFontFamily: 'IBM Plex Sans',
      sansSerifFamily: 'IBM Plex Sans',
      serifFamily: 'IBM Plex Sans',
      monospaceFamily: 'IBM Plex Mono',
    },
  })
    .render()
    .asPng();
  return `data:image/png;base64,${png.toString('base64')}`;
}

function drawLetter(doc: Document, letter: Letter): void {
  const { texts, accent } = letter;
  const fill = (template: string, values: Record<string, string> = {}) =>
    fillPlaceholders(template, { tenantName: letter.brand.displayName, ...values });
  // No margins: every text is placed, and those that wrap are bounded (block), so pdfkit never
  // starts a page by itself and the batch keeps exactly one page per unit.
  doc.addPage({ size: 'A4', margin: 0 });

  doc.image(letter.logo, LEFT, 15 * MM, { fit: [60 * MM, 18 * MM], valign: 'center' });
  doc.font('sansBold').fontSize(11).fillColor(TEXT_COLOUR);
  block(doc, letter.brand.displayName, 110 * MM, 21 * MM, {
    width: 80 * MM,
    align: 'right',
    bottom: 33 * MM,
  });

  // The recipient where a Swiss window envelope with its window on the right shows the address.
  const address = [letter.unit.name, letter.unit.unit, letter.building].filter((line) => line?.trim());
  doc.font('sans').fontSize(11);
  block(doc, address.join('\n'), 118 * MM, 50 * MM, { width: 72 * MM, bottom: 80 * MM });
  doc.fontSize(10.5).text(letter.date, 118 * MM, 88 * MM, { lineBreak: false });

  doc.font('sansBold').fontSize(16).fillColor(accent);
  block(doc, texts.heading, LEFT, 100 * MM, { width: WIDTH, bottom: 115 * MM });
  const ruleY = doc.y + 1.5 * MM;
  rule(doc, ruleY, 1, accent);

  doc.font('sans').fontSize(10.5).fillColor(TEXT_COLOUR);
  block(doc, fill(texts.intro), LEFT, ruleY + 4 * MM, { width: WIDTH, bottom: 140 * MM });
  doc.font('sansBold');
  block(doc, texts.stepsTitle, LEFT, doc.y + 4 * MM, { width: WIDTH, bottom: 150 * MM });
  for (const [index, step] of [texts.steps.open, texts.steps.account, texts.steps.confirm].entries()) {
    const top = doc.y + 1.5 * MM;
    doc.font('sansBold').text(`${index + 1}.`, LEFT, top, { lineBreak: false });
    doc.font('sans');
    block(doc, step, LEFT + 6 * MM, top, { width: WIDTH - 6 * MM, bottom: 180 * MM });
  }

  // The code in a tinted box with the accent's bar: 20 pt monospace, 152 mm of the box's 164. The
  // flow above ends by 180 mm, so the box, the link and the QR code end above the contact at 262 mm.
  const boxY = doc.y + 5 * MM;
  doc.rect(LEFT, boxY, WIDTH, 20 * MM).fill(TINT);
  doc.rect(LEFT, boxY, 1.5 * MM, 20 * MM).fill(accent);
  doc.font('sans').fontSize(9.5).fillColor(MUTED_COLOUR);
  doc.text(texts.code, LEFT + 6 * MM, boxY + 3 * MM, { lineBreak: false });
  doc.font('monoBold').fontSize(20).fillColor(TEXT_COLOUR);
  doc.text(letter.code, LEFT + 6 * MM, boxY + 8.5 * MM, { lineBreak: false });

  // The link and what to know beside the QR code, which takes the right 45 mm.
  const rowY = boxY + 26 * MM;
  const qrSide = 45 * MM;
  drawQrCode(doc, letter.qrCode, LEFT + WIDTH - qrSide, rowY, qrSide);
  const columnWidth = WIDTH - qrSide - 6 * MM;
  doc.font('sansBold').fontSize(10.5).fillColor(TEXT_COLOUR);
  doc.text(texts.link, LEFT, rowY, { lineBreak: false });
  const linkY = rowY + 6 * MM;
  const linkBottom = drawLink(doc, letter.unit.registerUrl, LEFT, linkY, columnWidth);
  doc.font('sans').fontSize(10.5).fillColor(TEXT_COLOUR);
  let y = linkBottom + 4 * MM;
  if (letter.lastDay) {
    block(doc, fill(texts.expiry, { date: letter.lastDay }), LEFT, y, {
      width: columnWidth,
      bottom: 255 * MM,
    });
    y = doc.y + 3 * MM;
  }
  doc.font('sansBold');
  block(doc, texts.keep, LEFT, y, { width: columnWidth, bottom: 255 * MM });

  if (letter.brand.contact) drawContact(doc, letter.brand.contact, letter.unit.language, texts);
}

/** A rule across the text's width. */
function rule(doc: Document, y: number, lineWidth: number, colour: string): void {
  doc
    .moveTo(LEFT, y)
    .lineTo(LEFT + WIDTH, y)
    .lineWidth(lineWidth)
    .strokeColor(colour)
    .stroke();
}

/** Text that wraps within `width` and is cut short with an ellipsis rather than pass `bottom`. */
function block(
  doc: Document,
  text: string,
  x: number,
  y: number,
  options: { width: number; bottom: number; align?: 'left' | 'right' },
): void {
  const height = Math.max(options.bottom - y, doc.currentLineHeight(true));
  doc.text(text, x, y, { width: options.width, height, ellipsis: true, align: options.align ?? 'left' });
}

/**
 * The link in full, in monospace so that it can be typed from paper, broken only after / ? & = . -
 * (or, for a part longer than a line, inside it) so that no character is added or lost: no hyphen,
 * no zero-width space that a reader copying it would carry along. Clickable in a PDF viewer too.
 * Returns where it ends.
 */
function drawLink(doc: Document, url: string, x: number, y: number, width: number): number {
  doc.font('mono').fontSize(9.5).fillColor(TEXT_COLOUR);
  const lineHeight = doc.currentLineHeight(true);
  const lines = linkLines(url, (text) => doc.widthOfString(text) <= width);
  for (const [index, line] of lines.entries())
    doc.text(line, x, y + index * lineHeight, { lineBreak: false });
  const height = lines.length * lineHeight;
  doc.link(x, y, width, height, url);
  return y + height;
}

/** The link's lines, each as long as `fits` allows. */
function linkLines(url: string, fits: (text: string) => boolean): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of url.split(/(?<=[/?&=.-])/)) {
    if (fits(line + part)) {
      line += part;
      continue;
    }
    if (line) lines.push(line);
    line = part;
    // A part wider than a line (a long host or value) is broken where the line is full.
    while (!fits(line)) {
      let cut = line.length - 1;
      while (cut > 1 && !fits(line.slice(0, cut))) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The QR code in a square of `side` points: the symbol, and around it the quiet zone of four
 * modules that ISO/IEC 18004 asks for, left blank.
 */
function drawQrCode(doc: Document, { modules }: QRCode, x: number, y: number, side: number): void {
  const size = modules.size;
  let path = '';
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; ) {
      if (!modules.get(row, column)) {
        column++;
        continue;
      }
      // One rectangle per run of dark modules in a row, in module units.
      let end = column + 1;
      while (end < size && modules.get(row, end)) end++;
      path += `M${column} ${row}h${end - column}v1h${column - end}z`;
      column = end;
    }
  }
  const module = side / (size + 8);
  doc
    .save()
    .translate(x + 4 * module, y + 4 * module)
    .scale(module)
    .path(path)
    .fill('#000000')
    .restore();
}

/** The property manager's contact at the foot, as the portal shows it, in the page's language. */
function drawContact(doc: Document, contact: TenantContact, language: Language, texts: LetterTexts): void {
  const top = 262 * MM;
  rule(doc, top, 0.5, HAIRLINE);
  doc.font('sansBold').fontSize(9).fillColor(TEXT_COLOUR);
  doc.text(texts.contact.title, LEFT, top + 3 * MM, { lineBreak: false });
  const reach = [
    contact.phone && `${texts.contact.phone} ${contact.phone}`,
    contact.email && `${texts.contact.email} ${contact.email}`,
  ].filter(Boolean);
  const hours = contact.officeHours?.[language];
  const lines = [contact.name, reach.join('   ·   '), hours && `${texts.contact.officeHours} ${hours}`];
  doc.font('sans').fillColor(MUTED_COLOUR);
  // (A text set without line breaks leaves doc.y where it was.)
  const linesY = top + 3 * MM + doc.currentLineHeight(true) + 1 * MM;
  block(doc, lines.filter(Boolean).join('\n'), LEFT, linesY, { width: WIDTH, bottom: BOTTOM });
}
