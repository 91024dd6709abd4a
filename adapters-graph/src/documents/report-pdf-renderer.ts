import PDFDocument from 'pdfkit';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { TEMPLATE_ERRORS, templateError, type DocBlock, type DocumentModel, type ResolvedStyle, type TemplateError } from '@tessera/core/internal';
import { dejaVuFonts, type PdfFonts } from './pdf-fonts.js';
import { decodeReportImage } from './report-images.js';

/** Space inside a table or grid cell, in points. */
const PAD = 4;
/** Space after a block. */
const GAP = 8;
const FONT = { regular: 'doc-regular', bold: 'doc-bold', italic: 'doc-italic', boldItalic: 'doc-bold-italic' } as const;

/** The DejaVu cuts of the document fonts: the export's two plus the obliques. */
const fontFiles = (fonts: PdfFonts) => ({
  [FONT.regular]: fonts.regular,
  [FONT.bold]: fonts.bold,
  [FONT.italic]: fonts.regular.replace(/\.ttf$/, '-Oblique.ttf'),
  [FONT.boldItalic]: fonts.bold.replace(/-Bold\.ttf$/, '-BoldOblique.ttf'),
});

const fontOf = (s: ResolvedStyle): string => (s.bold ? (s.italic ? FONT.boldItalic : FONT.bold) : s.italic ? FONT.italic : FONT.regular);

/**
 * Parsed fonts kept between documents. pdfkit parses a TTF (fontkit) for every document and warms
 * its glyph and layout caches on the first text: some 80 ms per font, most of a one-page invoice.
 * The first document opens each font the ordinary way; later ones get an EmbeddedFont (pdfkit's
 * own class, taken from that first instance) over the same parsed font, with a subset of their
 * own. Should pdfkit's internals differ, fonts open the ordinary way.
 */
type Opened = { readonly ctor: new (doc: PDFKit.PDFDocument, font: unknown, id: string) => unknown; readonly font: unknown };
const parsed = new Map<string, Opened>();
type FontInternals = { _font?: { constructor: Opened['ctor']; font?: unknown }; _fontFamilies?: Record<string, unknown>; _fontCount?: number };

const useFont = (doc: PDFKit.PDFDocument, name: string, file: string): void => {
  const inner = doc as unknown as FontInternals;
  const known = parsed.get(file);
  if (known && inner._fontFamilies && typeof inner._fontCount === 'number' && !inner._fontFamilies[name]) {
    inner._fontFamilies[name] = new known.ctor(doc, known.font, `F${++inner._fontCount}`);
    return;
  }
  if (known) return;
  const previous = inner._font;
  doc.font(name);
  const opened = inner._font;
  if (opened && opened !== previous && opened.font && typeof opened.constructor === 'function') parsed.set(file, { ctor: opened.constructor, font: opened.font });
};

class CannotSplit extends Error {}

/**
 * Draws a filled document (the core's layout model) with pdfkit: A4 by default, margins 40, the
 * DejaVu fonts (Slovak, Czech and German letters). A table breaks between rows and repeats its
 * header on the next page; a row never splits, so a row taller than a page, like a grid taller than
 * a page, is 'PDF cannot split grid to page'. Images are PNG or JPEG up to 2000 px.
 */
export const renderReportPdf = async (model: DocumentModel, fonts: PdfFonts = dejaVuFonts()): Promise<Either<TemplateError, Buffer>> => {
  const m = model.page.margins;
  const doc = new PDFDocument({
    size: model.page.size,
    layout: model.page.orientation,
    margins: { top: m, bottom: m, left: m, right: m },
    autoFirstPage: true,
    info: { Title: model.title || 'Document', Creator: 'Tessera' },
  });
  const opened = new Map<string, () => void>();
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const [name, file] of Object.entries(fontFiles(fonts))) {
    doc.registerFont(name, file);
    // Opened only when used (an italic style is rare).
    opened.set(name, () => useFont(doc, name, file));
  }

  const width = doc.page.width - 2 * m;
  const top = m;
  const bottom = doc.page.height - m;
  let y = top;

  const use = (s: ResolvedStyle) => {
    const name = fontOf(s);
    opened.get(name)?.();
    opened.delete(name);
    return doc.font(name).fontSize(s.fontSize).fillColor(s.color);
  };
  const cellHeight = (text: string, w: number, s: ResolvedStyle): number => {
    use(s);
    const inner = Math.max(1, w - 2 * PAD);
    // Most cells hold one short line: measured by width, without running the line wrapper.
    if (!text.includes('\n') && doc.widthOfString(text) <= inner) return doc.currentLineHeight(true) + 2 * PAD;
    return doc.heightOfString(text || ' ', { width: inner }) + 2 * PAD;
  };
  const newPage = () => {
    doc.addPage();
    y = top;
  };
  const widthsOf = (weights: readonly number[]): number[] => {
    const sum = weights.reduce((a, b) => a + b, 0) || 1;
    return weights.map((w) => (w / sum) * width);
  };
  /** One row of cells at y: background, texts, optional lines; the caller has checked it fits. */
  const drawRow = (cells: readonly string[], widths: readonly number[], aligns: readonly ResolvedStyle['align'][], s: ResolvedStyle, h: number, border: boolean) => {
    if (s.background) doc.save().rect(m, y, width, h).fill(s.background).restore();
    let x = m;
    cells.forEach((text, k) => {
      use(s);
      doc.text(text, x + PAD, y + PAD, { width: Math.max(1, widths[k] - 2 * PAD), align: aligns[k] ?? s.align, lineBreak: true });
      if (border) doc.save().lineWidth(0.5).strokeColor('#888888').rect(x, y, widths[k], h).stroke().restore();
      x += widths[k];
    });
    if (!border) doc.save().lineWidth(0.3).strokeColor('#cccccc').moveTo(m, y + h).lineTo(m + width, y + h).stroke().restore();
    y += h;
  };
  const rowHeight = (cells: readonly string[], widths: readonly number[], s: ResolvedStyle): number =>
    Math.max(...cells.map((c, k) => cellHeight(c, widths[k] ?? width, s)), s.fontSize + 2 * PAD);

  const drawBlock = (b: DocBlock): Either<TemplateError, void> => {
    switch (b.kind) {
      case 'pageBreak':
        newPage();
        return right(undefined);
      case 'text': {
        if (b.text === '') return right(undefined);
        use(b.style);
        const h = doc.heightOfString(b.text, { width });
        if (y + Math.min(h, b.style.fontSize * 1.5) > bottom) newPage();
        // pdfkit flows a long text onto new pages by itself.
        doc.text(b.text, m, y, { width, align: b.style.align });
        y = doc.y + GAP;
        return right(undefined);
      }
      case 'image': {
        const img = decodeReportImage(b.data);
        if (isLeft(img)) return img;
        const w = Math.min(b.width ?? img.right.width * 0.75, width);
        const h = (w / img.right.width) * img.right.height;
        if (h > bottom - top) return left(templateError(TEMPLATE_ERRORS.cannotSplitGrid, -1, 'an image is taller than a page'));
        if (y + h > bottom) newPage();
        const x = b.align === 'center' ? m + (width - w) / 2 : b.align === 'right' ? m + width - w : m;
        doc.image(img.right.data, x, y, { width: w, height: h });
        y += h + GAP;
        return right(undefined);
      }
      case 'grid': {
        const widths = widthsOf(b.widths);
        const heights = b.rows.map((r) => rowHeight(r, widths, b.style));
        const total = heights.reduce((a, c) => a + c, 0);
        if (total > bottom - top) return left(templateError(TEMPLATE_ERRORS.cannotSplitGrid, -1, `a grid of ${b.rows.length} rows is taller than a page`));
        if (y + total > bottom) newPage();
        b.rows.forEach((r, k) => drawRow(r, widths, [], b.style, heights[k], b.border));
        y += GAP;
        return right(undefined);
      }
      case 'table': {
        const widths = widthsOf(b.columns.map((c) => c.width));
        const aligns = b.columns.map((c) => c.align);
        const headers = b.columns.map((c) => c.header);
        const headerH = rowHeight(headers, widths, b.headerStyle);
        const header = () => drawRow(headers, widths, aligns, b.headerStyle, headerH, false);
        if (y + headerH * 2 > bottom) newPage();
        header();
        const fit = (h: number) => {
          if (headerH + h > bottom - top) throw new CannotSplit();
          if (y + h > bottom) {
            newPage();
            header();
          }
        };
        try {
          for (const r of b.rows) {
            const h = rowHeight(r, widths, b.style);
            fit(h);
            drawRow(r, widths, aligns, b.style, h, false);
          }
          if (b.totals) {
            const h = rowHeight(b.totals, widths, b.totalStyle);
            fit(h);
            drawRow(b.totals, widths, aligns, b.totalStyle, h, false);
          }
        } catch (e) {
          if (e instanceof CannotSplit) return left(templateError(TEMPLATE_ERRORS.cannotSplitGrid, -1, 'a table row is taller than a page'));
          throw e;
        }
        y += GAP;
        return right(undefined);
      }
    }
  };

  for (const b of model.blocks) {
    const r = drawBlock(b);
    if (isLeft(r)) {
      doc.end();
      await done.catch(() => undefined);
      return r;
    }
  }
  doc.end();
  return right(await done);
};
