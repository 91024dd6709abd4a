import {
  AlignmentType,
  BorderStyle,
  Document,
  ImageRun,
  Packer,
  PageBreak,
  PageOrientation,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableLayoutType,
  TableRow,
  TextRun,
  WidthType,
  type ITableBordersOptions,
} from 'docx';
import { isLeft, right, type Either } from 'fp-ts/lib/Either.js';
import type { DocBlock, DocumentModel, ResolvedStyle, TemplateError } from '@tessera/core/internal';
import { decodeReportImage } from './report-images.js';

/** Page sizes in twentieths of a point (twips), portrait. */
const PAGE_TWIPS = { A4: { width: 11906, height: 16838 }, A5: { width: 8391, height: 11906 }, LETTER: { width: 12240, height: 15840 } } as const;
const TWIPS_PER_POINT = 20;
const FONT = 'DejaVu Sans';

const ALIGN = { left: AlignmentType.LEFT, center: AlignmentType.CENTER, right: AlignmentType.RIGHT } as const;
const hex = (color: string | undefined): string | undefined => (color && /^#?[0-9a-f]{6}$/i.test(color) ? color.replace('#', '') : undefined);

/** The document's default run (font and size): a run states only how it differs, which keeps a long table's XML small. */
const BASE_SIZE = 10;
/** Lines of a text as runs with breaks between them (Word keeps one paragraph per block). */
const runs = (text: string, s: ResolvedStyle): TextRun[] => {
  const color = hex(s.color);
  const look = {
    ...(s.bold ? { bold: true } : {}),
    ...(s.italic ? { italics: true } : {}),
    ...(s.fontSize !== BASE_SIZE ? { size: Math.round(s.fontSize * 2) } : {}),
    ...(color && color !== '000000' ? { color } : {}),
  };
  return text.split('\n').map((line, i) => new TextRun({ text: line, ...(i > 0 ? { break: 1 } : {}), ...look }));
};

const NONE = { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' } as const;
const LINE = { style: BorderStyle.SINGLE, size: 4, color: '888888' } as const;
const UNDER = { style: BorderStyle.SINGLE, size: 2, color: 'CCCCCC' } as const;
/** Borders, cell margins and column widths are the table's, not each cell's (the same look, a fraction of the XML). */
const borders = (border: boolean): ITableBordersOptions =>
  border
    ? { top: LINE, bottom: LINE, left: LINE, right: LINE, insideHorizontal: LINE, insideVertical: LINE }
    : { top: NONE, bottom: UNDER, left: NONE, right: NONE, insideHorizontal: UNDER, insideVertical: NONE };
const CELL_MARGINS = { top: 60, bottom: 60, left: 80, right: 80 };

const cell = (text: string, s: ResolvedStyle, align: ResolvedStyle['align']): TableCell => {
  const fill = hex(s.background);
  return new TableCell({
    ...(fill ? { shading: { type: ShadingType.CLEAR, fill, color: 'auto' } } : {}),
    children: [new Paragraph({ ...(align !== 'left' ? { alignment: ALIGN[align] } : {}), children: runs(text, s) })],
  });
};

/** Column widths in twips from the weights over the text width. */
const twips = (weights: readonly number[], width: number): number[] => {
  const sum = weights.reduce((a, b) => a + b, 0) || 1;
  return weights.map((w) => Math.round((w / sum) * width));
};
const table = (rows: TableRow[], widths: number[], border: boolean): Table =>
  new Table({ width: { size: 100, type: WidthType.PERCENTAGE }, columnWidths: widths, layout: TableLayoutType.FIXED, margins: CELL_MARGINS, borders: borders(border), rows });

/**
 * Writes a filled document (the core's layout model) as a Word file with `docx`: the same page
 * size and margins as the PDF, tables whose header row repeats on each page and whose rows never
 * split (cantSplit), grids as borderless tables, images as PNG or JPEG runs.
 */
export const renderReportDocx = async (model: DocumentModel): Promise<Either<TemplateError, Buffer>> => {
  const children: Array<Paragraph | Table> = [];
  const size = PAGE_TWIPS[model.page.size];
  const margin = model.page.margins * TWIPS_PER_POINT;
  const pageWidthPt = (model.page.orientation === 'landscape' ? size.height : size.width) / TWIPS_PER_POINT - 2 * model.page.margins;
  const textWidth = pageWidthPt * TWIPS_PER_POINT;

  const add = (b: DocBlock): Either<TemplateError, void> => {
    switch (b.kind) {
      case 'pageBreak':
        children.push(new Paragraph({ children: [new PageBreak()] }));
        break;
      case 'text':
        if (b.text !== '') children.push(new Paragraph({ alignment: ALIGN[b.style.align], spacing: { after: 160 }, children: runs(b.text, b.style) }));
        break;
      case 'image': {
        const img = decodeReportImage(b.data);
        if (isLeft(img)) return img;
        // docx sizes images in pixels at 96 dpi: points x 4/3.
        const w = Math.min(b.width ?? img.right.width * 0.75, pageWidthPt);
        const h = (w / img.right.width) * img.right.height;
        children.push(
          new Paragraph({
            alignment: ALIGN[b.align],
            children: [new ImageRun({ type: img.right.type, data: img.right.data, transformation: { width: Math.round((w * 4) / 3), height: Math.round((h * 4) / 3) } })],
          }),
        );
        break;
      }
      case 'grid': {
        const widths = twips(b.widths, textWidth);
        children.push(
          table(b.rows.map((r) => new TableRow({ cantSplit: true, children: widths.map((_, k) => cell(r[k] ?? '', b.style, b.style.align)) })), widths, b.border),
          new Paragraph({ children: [] }),
        );
        break;
      }
      case 'table': {
        const widths = twips(b.columns.map((c) => c.width), textWidth);
        const row = (cells: readonly string[], s: ResolvedStyle, header: boolean) =>
          new TableRow({ cantSplit: true, ...(header ? { tableHeader: true } : {}), children: b.columns.map((c, k) => cell(cells[k] ?? '', s, c.align)) });
        children.push(
          table([row(b.columns.map((c) => c.header), b.headerStyle, true), ...b.rows.map((r) => row(r, b.style, false)), ...(b.totals ? [row(b.totals, b.totalStyle, false)] : [])], widths, false),
          new Paragraph({ children: [] }),
        );
        break;
      }
    }
    return right(undefined);
  };

  for (const b of model.blocks) {
    const r = add(b);
    if (isLeft(r)) return r;
  }
  const doc = new Document({
    creator: 'Tessera',
    title: model.title || 'Document',
    styles: { default: { document: { run: { font: FONT, size: BASE_SIZE * 2 } } } },
    sections: [
      {
        properties: {
          page: {
            size: { width: size.width, height: size.height, orientation: model.page.orientation === 'landscape' ? PageOrientation.LANDSCAPE : PageOrientation.PORTRAIT },
            margin: { top: margin, bottom: margin, left: margin, right: margin },
          },
        },
        children,
      },
    ],
  });
  return right(await Packer.toBuffer(doc));
};
