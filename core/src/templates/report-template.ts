import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { nestsDeeperThan } from '../nesting-depth.js';
import { TEMPLATE_ERRORS as E, templateError, type TemplateError } from './template-errors.js';
import { asList, DEFAULT_TEXT_FORMAT, MAX_OUTPUT_CHARS, MAX_TEMPLATE_CHARS, parseTextTemplate, renderTextTemplate, type Scope, type TextFormat, type TextTemplate } from './text-template.js';

/**
 * The body of a report_template (spec 002 "Document generation": body JSON with variable
 * definitions, styles, images): page settings, named styles, inline images, variables (the
 * related rows a template reads, such as an invoice's lines) and the content blocks, whose texts
 * are text templates. docs/templates.md describes every member.
 */
export const PDF_DEFAULT_MARGINS = 40;
/** Spec 002 section 9: an image of a document is at most 2000 px on its longer side. */
export const MAX_IMAGE_PIXELS = 2000;
/** Largest body accepted: the templates' texts plus inline images (a 2000 px JPEG fits). */
export const MAX_REPORT_BODY_CHARS = 3_000_000;
/** Deepest JSON nesting of a body (its blocks do not nest, so a deep body is a mistake or an attack). */
export const MAX_REPORT_BODY_DEPTH = 12;
/** Rows one variable reads (an invoice of 1000 lines fits; a query of the whole table does not). */
export const MAX_VARIABLE_ROWS = 5000;

const Align = t.keyof({ left: null, center: null, right: null });
export type Align = t.TypeOf<typeof Align>;

export const Style = t.partial({ fontSize: t.number, bold: t.boolean, italic: t.boolean, align: Align, color: t.string, background: t.string }, 'Style');
export type Style = t.TypeOf<typeof Style>;

const Column = t.intersection([t.type({ text: t.string }), t.partial({ header: t.string, width: t.number, align: Align, total: t.string })], 'Column');

const Block = t.union([
  t.intersection([t.type({ type: t.literal('text'), text: t.string }), t.partial({ style: t.string })]),
  // `image`: a key of the body's `images`, or `{ name }` of a report_image record (report-images.ts).
  t.intersection([t.type({ type: t.literal('image'), image: t.union([t.string, t.type({ name: t.string })]) }), t.partial({ width: t.number, align: Align })]),
  t.intersection([t.type({ type: t.literal('table'), rows: t.string, columns: t.array(Column) }), t.partial({ style: t.string, headerStyle: t.string, totalStyle: t.string })]),
  t.intersection([t.type({ type: t.literal('grid'), cells: t.array(t.array(t.string)) }), t.partial({ widths: t.array(t.number), style: t.string, border: t.boolean })]),
  t.type({ type: t.literal('pageBreak') }),
]);

/** A related list: the rows of `entity` whose `parentField` is the record's id, ordered by `orderBy`. */
const Variable = t.intersection([t.type({ entity: t.string, parentField: t.string }), t.partial({ orderBy: t.string, descending: t.boolean })], 'Variable');
export type Variable = t.TypeOf<typeof Variable>;

export const ReportBody = t.intersection(
  [
    t.type({ content: t.array(Block) }),
    t.partial({
      title: t.string,
      page: t.partial({ size: t.keyof({ A4: null, A5: null, LETTER: null }), orientation: t.keyof({ portrait: null, landscape: null }), margins: t.number, fontSize: t.number }),
      styles: t.record(t.string, Style),
      images: t.record(t.string, t.string),
      variables: t.record(t.string, Variable),
    }),
  ],
  'report template body',
);
export type ReportBody = t.TypeOf<typeof ReportBody>;

/** Decodes a body text: bad JSON, a deep or huge body, or a wrong shape is 'Invalid template format'. */
export const parseReportBody = (text: string): Either<TemplateError, ReportBody> => {
  if (text.length > MAX_REPORT_BODY_CHARS) return left(templateError(E.invalidFormat, -1, `the body is longer than ${MAX_REPORT_BODY_CHARS} characters`));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return left(templateError(E.invalidFormat, -1, `the body is not JSON (${e instanceof Error ? e.message : 'parse error'})`));
  }
  if (nestsDeeperThan(json, MAX_REPORT_BODY_DEPTH)) return left(templateError(E.invalidFormat, -1, `the body nests deeper than ${MAX_REPORT_BODY_DEPTH}`));
  const decoded = ReportBody.decode(json);
  if (isLeft(decoded)) {
    const first = decoded.left[0];
    const path = first ? first.context.map((c) => c.key).filter(Boolean).join('.') : '';
    return left(templateError(E.invalidFormat, -1, `unexpected value at ${path || 'the top'}`));
  }
  return right(decoded.right);
};

// ---- The layout model: what a renderer draws, every text already filled in.

export type ResolvedStyle = { readonly fontSize: number; readonly bold: boolean; readonly italic: boolean; readonly align: Align; readonly color: string; readonly background?: string };

export type DocColumn = { readonly header: string; readonly width: number; readonly align: Align };

export type DocBlock =
  | { readonly kind: 'text'; readonly text: string; readonly style: ResolvedStyle }
  | { readonly kind: 'image'; readonly data: string; readonly width?: number; readonly align: Align }
  /** Rows may break across pages (the header repeats); a row itself never splits. */
  | { readonly kind: 'table'; readonly columns: readonly DocColumn[]; readonly rows: readonly (readonly string[])[]; readonly totals?: readonly string[]; readonly style: ResolvedStyle; readonly headerStyle: ResolvedStyle; readonly totalStyle: ResolvedStyle }
  /** A grid stays on one page: taller than a page is 'PDF cannot split grid to page'. */
  | { readonly kind: 'grid'; readonly widths: readonly number[]; readonly rows: readonly (readonly string[])[]; readonly style: ResolvedStyle; readonly border: boolean }
  | { readonly kind: 'pageBreak' };

export type DocumentModel = {
  readonly title: string;
  readonly page: { readonly size: 'A4' | 'A5' | 'LETTER'; readonly orientation: 'portrait' | 'landscape'; readonly margins: number };
  readonly blocks: readonly DocBlock[];
};

const BASE_STYLE: ResolvedStyle = { fontSize: 10, bold: false, italic: false, align: 'left', color: '#000000' };

const resolveStyle = (body: ReportBody, base: ResolvedStyle, name: string | undefined, extra?: Partial<ResolvedStyle>): ResolvedStyle => {
  const s = name ? body.styles?.[name] : undefined;
  const fontSize = s?.fontSize !== undefined && s.fontSize >= 4 && s.fontSize <= 72 ? s.fontSize : base.fontSize;
  return { ...base, ...extra, ...(s ?? {}), fontSize };
};

/** A parsed text of the body, so each is parsed once however many rows repeat it. */
const compile = (cache: Map<string, TextTemplate>, source: string): Either<TemplateError, TextTemplate> => {
  const hit = cache.get(source);
  if (hit) return right(hit);
  const parsed = parseTextTemplate(source);
  if (!isLeft(parsed)) cache.set(source, parsed.right);
  return parsed;
};

/**
 * Fills a body's texts from a record and its variables' rows into the layout model. `data` is the
 * record with each variable's rows under its name. Text errors carry the spec's messages; the whole
 * document's text is bounded by MAX_OUTPUT_CHARS.
 */
export const layoutReport = (
  body: ReportBody,
  data: Record<string, unknown>,
  fmt: TextFormat = DEFAULT_TEXT_FORMAT,
  /** The report images the body names (loadReportImages), name to data URL. */
  reportImages: Readonly<Record<string, string>> = {},
): Either<TemplateError, DocumentModel> => {
  const cache = new Map<string, TextTemplate>();
  let budget = MAX_OUTPUT_CHARS;
  const fill = (source: string, scope: Scope): Either<TemplateError, string> => {
    if (source.length > MAX_TEMPLATE_CHARS) return left(templateError(E.invalidFormat, -1, 'a text of the body is too long'));
    const tpl = compile(cache, source);
    if (isLeft(tpl)) return left({ ...tpl.left, detail: `${tpl.left.detail ? `${tpl.left.detail} ` : ''}in '${source.slice(0, 80)}'` });
    const out = renderTextTemplate(tpl.right, scope, fmt, budget);
    if (!isLeft(out)) budget -= out.right.length;
    return out;
  };
  const base = resolveStyle(body, { ...BASE_STYLE, fontSize: body.page?.fontSize ?? BASE_STYLE.fontSize }, 'default');
  const root: Scope = [data];
  const blocks: DocBlock[] = [];
  for (const b of body.content) {
    switch (b.type) {
      case 'text': {
        const text = fill(b.text, root);
        if (isLeft(text)) return text;
        blocks.push({ kind: 'text', text: text.right, style: resolveStyle(body, base, b.style) });
        break;
      }
      case 'image': {
        const image = b.image;
        const data = typeof image === 'string' ? body.images?.[image] : Object.hasOwn(reportImages, image.name) ? reportImages[image.name] : undefined;
        if (data === undefined)
          return left(typeof image === 'string' ? templateError(E.invalidFormat, -1, `no image named '${image}'`) : templateError(E.cannotLoadImage, -1, `no report image named '${image.name}'`));
        blocks.push({ kind: 'image', data, align: b.align ?? 'left', ...(b.width !== undefined ? { width: b.width } : {}) });
        break;
      }
      case 'table': {
        // A variable's rows, or a field holding a JSON list (a travel report's legs_json).
        const items = asList(data[b.rows]);
        const rows: string[][] = [];
        for (let k = 0; k < items.length; k++) {
          const scope: Scope = [{ $index: k + 1 }, items[k], data];
          const row: string[] = [];
          for (const c of b.columns) {
            const cell = fill(c.text, scope);
            if (isLeft(cell)) return cell;
            row.push(cell.right);
          }
          rows.push(row);
        }
        let totals: string[] | undefined;
        if (b.columns.some((c) => c.total !== undefined)) {
          totals = [];
          for (const c of b.columns) {
            const cell = c.total === undefined ? right('') : fill(c.total, root);
            if (isLeft(cell)) return cell;
            totals.push(cell.right);
          }
        }
        const style = resolveStyle(body, base, b.style);
        blocks.push({
          kind: 'table',
          columns: b.columns.map((c) => ({ header: c.header ?? '', width: c.width !== undefined && c.width > 0 ? c.width : 1, align: c.align ?? 'left' })),
          rows,
          ...(totals ? { totals } : {}),
          style,
          headerStyle: resolveStyle(body, style, b.headerStyle, { bold: true }),
          totalStyle: resolveStyle(body, style, b.totalStyle, { bold: true }),
        });
        break;
      }
      case 'grid': {
        const rows: string[][] = [];
        for (const r of b.cells) {
          const row: string[] = [];
          for (const c of r) {
            const cell = fill(c, root);
            if (isLeft(cell)) return cell;
            row.push(cell.right);
          }
          rows.push(row);
        }
        const n = Math.max(1, ...rows.map((r) => r.length));
        const widths = Array.from({ length: n }, (_, k) => (b.widths?.[k] !== undefined && b.widths[k] > 0 ? b.widths[k] : 1));
        blocks.push({ kind: 'grid', widths, rows, style: resolveStyle(body, base, b.style), border: b.border ?? false });
        break;
      }
      case 'pageBreak':
        blocks.push({ kind: 'pageBreak' });
        break;
    }
  }
  const title = body.title === undefined ? right('') : fill(body.title, root);
  if (isLeft(title)) return title;
  const margins = body.page?.margins;
  return right({
    title: title.right,
    page: { size: body.page?.size ?? 'A4', orientation: body.page?.orientation ?? 'portrait', margins: margins !== undefined && margins >= 0 && margins <= 200 ? margins : PDF_DEFAULT_MARGINS },
    blocks,
  });
};

/**
 * A text template (hr_doc_template) as a document: its filled text, one paragraph per line
 * block, in the default style.
 */
export const layoutTextDocument = (title: string, source: string, data: Record<string, unknown>, fmt: TextFormat = DEFAULT_TEXT_FORMAT): Either<TemplateError, DocumentModel> => {
  const parsed = parseTextTemplate(source);
  if (isLeft(parsed)) return parsed;
  const text = renderTextTemplate(parsed.right, [data], fmt);
  if (isLeft(text)) return text;
  return right({ title, page: { size: 'A4', orientation: 'portrait', margins: PDF_DEFAULT_MARGINS }, blocks: [{ kind: 'text', text: text.right, style: BASE_STYLE }] });
};

/** Every text of a body (title, blocks, cells, columns, totals), for checking them without data. */
const textsOf = (body: ReportBody): string[] => [
  ...(body.title === undefined ? [] : [body.title]),
  ...body.content.flatMap((b) =>
    b.type === 'text' ? [b.text] : b.type === 'table' ? b.columns.flatMap((c) => [c.text, ...(c.total === undefined ? [] : [c.total])]) : b.type === 'grid' ? b.cells.flat() : [],
  ),
];

/**
 * The template editor's check (issue 20): the body decodes, every text parses and every image it
 * names exists; the first failure as a template error with the spec's text, else null.
 */
export const checkReportBody = (text: string): TemplateError | null => {
  const body = parseReportBody(text);
  if (isLeft(body)) return body.left;
  for (const source of textsOf(body.right)) {
    const parsed = parseTextTemplate(source);
    if (isLeft(parsed)) return { ...parsed.left, detail: `${parsed.left.detail ? `${parsed.left.detail} ` : ''}in '${source.slice(0, 80)}'` };
  }
  // A report image ({ name }) is a record, read when the document is made.
  for (const b of body.right.content)
    if (b.type === 'image' && typeof b.image === 'string' && body.right.images?.[b.image] === undefined) return templateError(E.invalidFormat, -1, `no image named '${b.image}'`);
  return null;
};
