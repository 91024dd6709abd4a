/**
 * One cell of the project's CSV dialect (spec 002 section 5): a cell containing a quote, the
 * separator, a newline (or a carriage return, or a backslash) is quoted; inside quotes, quotes
 * are doubled and backslash, newline and carriage return are escaped as \\, \n and \r. Import
 * reverses the backslash escapes of quoted cells only (csv-parse undoes the doubled quotes), so
 * an unquoted `C:\new` from another program stays as it is.
 */
export const csvQuote = (text: string): string =>
  `"${text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/"/g, '""')}"`;

export const csvNeedsQuotes = (text: string, separator: string): boolean =>
  text.includes(separator) || /["\n\r\\]/.test(text);

/** The cell as written: quoted when it must be (or when `forceQuotes`), else as it is. */
export const csvCell = (text: string, separator: string, forceQuotes = false): string =>
  forceQuotes || csvNeedsQuotes(text, separator) ? csvQuote(text) : text;

/** The value of a quoted cell after csv-parse removed the quotes: \n newline, \r CR, \\ backslash. */
export const unescapeQuotedCell = (text: string): string =>
  text.includes('\\') ? text.replace(/\\([\\nr])/g, (_m, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : '\\')) : text;
