import type { EntityRecord, FieldValue, Property, PropertyType, RichOption } from './core.js';
import { FIELD_TYPES, formatDuration, formatMoney, fromBitmap, hasFlag, splitTags, SYSTEM_USER_ID } from './core.js';
import { session } from './state/session.js';
import { language, t } from './i18n.js';

/** The locale of Intl formatting for the current language (the catalogue's cz is cs). */
export const locale = (): string => (language.value === 'cz' ? 'cs' : language.value);

/** A list's total in the user's number format; a count stopped at the server's cap reads "10,000+" (issue 24). */
export const formatCount = (count: number, capped: boolean): string => `${count.toLocaleString(locale())}${capped ? '+' : ''}`;

/** The options of a property: its rich options, else its plain options. */
export const optionsOf = (p: Property): RichOption[] =>
  p.richOptions && p.richOptions.length > 0 ? p.richOptions : ((p.options ?? []) as Array<{ value?: unknown; label?: unknown }>).filter((o): o is RichOption => typeof o.value === 'number' && typeof o.label === 'string');

export const isOptionSet = (p: Property): boolean => hasFlag(p, 'OptionSet') || (optionsOf(p).length > 0 && FIELD_TYPES[p.type].column === 'integer');

/**
 * A lookup as people read it: its label; the system user (who wrote records the system created)
 * reads 'System'; a currency the reader may not read is named from the user context's currencies;
 * any other target without a label '(Unknown)', never a bare id (issue 23 item 7).
 */
export const lookupLabel = (v: FieldValue | undefined): string => {
  if (!v || typeof v !== 'object') return typeof v === 'string' ? v : '';
  if (v.label) return v.label;
  if (v.id === SYSTEM_USER_ID) return t('LblSystem');
  return session.value?.context.currencyDict?.[v.id]?.name || t('MsgUnknownTitle');
};

/** The currency of a record's currencyid, else the organization default (Euro). */
export const currencyOf = (record: EntityRecord) => {
  const dict = session.value?.context.currencyDict ?? {};
  const c = record.currencyid;
  const id = c && typeof c === 'object' ? c.id : typeof c === 'string' ? c : undefined;
  return (id && dict[id]) || Object.values(dict).find((x) => x.isdefault) || null;
};

const dateFormat = new Map<string, Intl.DateTimeFormat>();
const fmt = (key: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat => {
  const k = `${locale()}|${key}`;
  let f = dateFormat.get(k);
  if (!f) {
    f = new Intl.DateTimeFormat(locale(), opts);
    dateFormat.set(k, f);
  }
  return f;
};

export const formatDate = (v: string, dateOnly: boolean): string => {
  if (dateOnly) {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
    if (!m) return v;
    return fmt('d', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])));
  }
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? v : fmt('dt', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }).format(d);
};

type Formatter = (p: Property, v: Exclude<FieldValue, null | ''>, record: EntityRecord) => string;

/** A number: option labels (a multi-select bitmap lists each), a duration, else in the locale with the property's precision. */
const numberText: Formatter = (p, v) => {
  if (typeof v !== 'number') return String(v);
  const options = optionsOf(p);
  if (options.length > 0) {
    const values = hasFlag(p, 'MultiSelect') ? fromBitmap(v) : [v];
    return values.map((x) => options.find((o) => o.value === x)?.label ?? String(x)).join(', ');
  }
  if (hasFlag(p, 'Duration')) return formatDuration(v);
  return v.toLocaleString(locale(), { maximumFractionDigits: p.precision ?? 10 });
};
const plainText: Formatter = (p, v, record) => (typeof v === 'number' ? numberText(p, v, record) : String(v));

/** The text of each property type in lists and read-only views (one table: a new type is a compile error until it has one). */
export const formatters = {
  String: (p, v, record) => (typeof v === 'string' && (p.formatString === 'tags' || hasFlag(p, 'MultiSelect')) ? splitTags(v).join(', ') : plainText(p, v, record)),
  Integer: numberText,
  Decimal: numberText,
  Float: numberText,
  Money: (p, v, record) => (typeof v === 'number' && optionsOf(p).length === 0 ? formatMoney(v, currencyOf(record), { thousandsSeparator: '\u202f' }) : numberText(p, v, record)),
  DateTime: (p, v) => formatDate(String(v), hasFlag(p, 'DateOnly')),
  Guid: plainText,
  Lookup: (_, v) => lookupLabel(v),
  Boolean: (_, v) => (v === true ? t('LblYes') : t('LblNo')),
  Binary: plainText,
  VersionNumber: plainText,
} satisfies Record<PropertyType, Formatter>;

/** A field value as text for lists and read-only views. */
export const formatValue = (p: Property | undefined, v: FieldValue | undefined, record: EntityRecord = {}): string => {
  if (v === undefined || v === null || v === '') return '';
  if (!p || typeof v === 'object') return typeof v === 'object' ? lookupLabel(v) : String(v);
  return formatters[p.type](p, v, record);
};

/** The colour of an option value, when its rich option has one. */
export const optionColor = (p: Property | undefined, v: FieldValue | undefined): string | undefined =>
  p && typeof v === 'number' ? p.richOptions?.find((o) => o.value === v)?.color : undefined;
