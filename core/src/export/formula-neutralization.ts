/**
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with
 * = + - @, a tab or a carriage return as a formula. Export prefixes such a text cell with a
 * single quote (and quotes the cell); import removes that quote, so the value comes back as
 * it was. A value that already starts with quotes before a trigger gets one more quote, which
 * keeps `restoreNeutralized(neutralizeFormula(s)) === s` for every string.
 */
const TRIGGER = /^'*[=+\-@\t\r]/;
const NEUTRALIZED = /^'+[=+\-@\t\r]/;

export const needsNeutralizing = (s: string): boolean => TRIGGER.test(s);

export const neutralizeFormula = (s: string): string => (TRIGGER.test(s) ? `'${s}` : s);

export const restoreNeutralized = (s: string): string => (NEUTRALIZED.test(s) ? s.slice(1) : s);
