/**
 * The template errors of spec 002 section 8, exactly as the spec writes them. A template error is
 * a value: `at` is the offset in the template text (or -1 when it is not about one place), `detail`
 * says more for the editor; the message stays the spec's text.
 */
export const TEMPLATE_ERRORS = {
  invalidFormat: 'Invalid template format',
  notFound: 'executePdfTemplate template not found',
  cannotSplitGrid: 'PDF cannot split grid to page',
  invalidFormattedText: 'Invalid formatted text',
  notTerminated: 'Control statement is not terminated with ]',
  invalidEnd: 'Invalid end statement',
  notEnoughEnds: 'Not enough end statements.',
  /** Spec 002 section 8 "Image load failure": a report image (report_image record) named by a body. */
  cannotLoadImage: 'Cannot load image',
} as const;

export type TemplateErrorText = (typeof TEMPLATE_ERRORS)[keyof typeof TEMPLATE_ERRORS];

export type TemplateError = { readonly _tag: 'TemplateError'; readonly message: TemplateErrorText; readonly at: number; readonly detail?: string };

export const templateError = (message: TemplateErrorText, at = -1, detail?: string): TemplateError => ({
  _tag: 'TemplateError',
  message,
  at,
  ...(detail === undefined ? {} : { detail }),
});

/** Line and column (1-based) of an offset, for the editor's message. */
export const lineAndColumn = (text: string, at: number): { line: number; column: number } => {
  const before = text.slice(0, Math.max(0, at));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
};

/** The error's text for a person: the spec's message, then where and why. */
export const templateErrorText = (e: TemplateError, source?: string): string => {
  const where = e.at >= 0 && source !== undefined ? (({ line, column }) => ` (line ${line}, column ${column})`)(lineAndColumn(source, e.at)) : '';
  return `${e.message}${where}${e.detail ? `: ${e.detail}` : ''}`;
};
