import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import type { RichOption } from './entity.js';

/**
 * The rich-option line format of spec 000 section 3:
 * `VALUE;LABEL;COLOR;ICON;DEPENDENT_FIELD;DEPENDENT_FIELD_VALUE`, one option per line.
 *
 * Escaping (the spec leaves it open; docs/metadata.md): inside a field `\;` is a literal
 * semicolon, `\\` a backslash, `\n` a line feed and `\r` a carriage return. Any other
 * backslash is kept as it is, so `C:\temp` survives. Fields are trimmed; an empty field is
 * absent, and trailing absent fields are not printed. VALUE is an integer; a missing LABEL
 * takes the value's text. Blank lines are skipped.
 */
export const RICH_OPTION_FIELDS = ['value', 'label', 'color', 'icon', 'depfield', 'depvalue'] as const;

const escapeField = (s: string): string =>
  s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/\n/g, '\\n').replace(/\r/g, '\\r');

/** Splits one line at unescaped semicolons and resolves the escapes of each field. */
const splitLine = (line: string): string[] => {
  const fields: string[] = [];
  let current = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && i + 1 < line.length) {
      const next = line[i + 1];
      const resolved =
        next === ';' ? ';' : next === '\\' ? '\\' : next === 'n' ? '\n' : next === 'r' ? '\r' : undefined;
      if (resolved !== undefined) {
        current += resolved;
        i++;
        continue;
      }
    }
    if (c === ';') {
      fields.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  fields.push(current);
  return fields;
};

/** Parses one line; `lineNumber` (1-based) names the line in the error. */
export const parseRichOptionLine = (line: string, lineNumber = 1): Either<InputError, RichOption> => {
  const fields = splitLine(line).map((f) => f.trim());
  if (fields.length > RICH_OPTION_FIELDS.length)
    return left(
      inputError(`Invalid option line ${lineNumber}: more than ${RICH_OPTION_FIELDS.length} fields in '${line}'`),
    );
  const [value, label, color, icon, depfield, depvalue] = fields;
  if (!/^-?\d+$/.test(value ?? '') || !Number.isSafeInteger(Number(value)))
    return left(inputError(`Invalid option line ${lineNumber}: the value '${value ?? ''}' is not an integer`));
  const option: RichOption = { value: Number(value), label: label ? label : String(Number(value)) };
  if (color) option.color = color;
  if (icon) option.icon = icon;
  if (depfield) option.depfield = depfield;
  if (depvalue) option.depvalue = depvalue;
  return right(option);
};

/** Parses the lines an administrator typed; the first bad line is the error. Values must not repeat. */
export const parseRichOptionLines = (text: string): Either<InputError, RichOption[]> => {
  const options: RichOption[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const parsed = parseRichOptionLine(lines[i], i + 1);
    if (parsed._tag === 'Left') return parsed;
    if (options.some((o) => o.value === parsed.right.value))
      return left(inputError(`Invalid option line ${i + 1}: the value ${parsed.right.value} is repeated`));
    options.push(parsed.right);
  }
  return right(options);
};

export const printRichOptionLine = (o: RichOption): string => {
  const fields = [String(o.value), o.label, o.color ?? '', o.icon ?? '', o.depfield ?? '', o.depvalue ?? ''].map(
    escapeField,
  );
  while (fields.length > 2 && fields[fields.length - 1] === '') fields.pop();
  return fields.join(';');
};

export const printRichOptionLines = (options: readonly RichOption[]): string =>
  options.map(printRichOptionLine).join('\n');
