import { useId, useState } from 'react';
import { isRight } from 'fp-ts/lib/Either.js';
import type { EntityRecord, FieldValue, FormField, LookupValue, Property, PropertyType, RichOption } from '../core.js';
import { addTag, ageDisplay, FIELD_TYPES, dependentOptions, formatDurationInput, fromBitmap, hasFlag, hasTag, joinTags, optionPresentation, parseDuration, splitTags, toggleBit } from '../core.js';
import { useT } from '../i18n.js';
import { currencyOf, optionsOf } from '../format.js';
import { local } from '../state/storage.js';
import { Icon } from '../ui/icons.js';
import { LookupInput } from './lookup.js';
import { StoredFileLink } from '../files/stored-file-link.js';

type EditorProps = {
  id: string;
  p: Property;
  f: FormField;
  value: FieldValue | undefined;
  record: EntityRecord;
  entityName: string;
  disabled: boolean;
  invalid: boolean;
  describedBy?: string;
  label: string;
  onChange: (v: FieldValue) => void;
  /** in a list cell (issue 13): option sets as a dropdown, never a row of radio-like choices */
  compact?: boolean;
};

const pad = (n: number) => String(n).padStart(2, '0');
/** An ISO instant as the value of a datetime-local input, in the browser's time zone. */
export const toLocalInput = (iso: string): string => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
export const fromLocalInput = (v: string): string | null => (v ? new Date(v).toISOString() : null);

/** Tag fields: strings joined with ';' (spec 001 section 3); a tag never repeats (section 5). */
export const isTagField = (p: Property, f: FormField): boolean =>
  FIELD_TYPES[p.type].stored === 'text' && (f.type === 'tags' || p.formatString === 'tags' || hasFlag(p, 'MultiSelect'));

const TagsEditor = ({ id, value, onChange, disabled, label }: { id: string; value: string; onChange: (v: string | null) => void; disabled: boolean; label: string }) => {
  const t = useT();
  const tags = splitTags(value);
  const [text, setText] = useState('');
  const [warn, setWarn] = useState(false);
  const add = () => {
    const v = text.trim();
    if (!v) return;
    if (hasTag(tags, v)) {
      setWarn(true);
      return;
    }
    onChange(joinTags(addTag(tags, v)));
    setText('');
    setWarn(false);
  };
  return (
    <div className="tags">
      <ul className="tag-list" aria-label={label}>
        {tags.map((tag) => (
          <li key={tag} className="tag">
            {tag}
            {!disabled && (
              <button type="button" className="tag-x" aria-label={t('LblRemoveTag', { tag })} onClick={() => onChange(joinTags(tags.filter((x) => x !== tag)))}>
                <Icon name="close" size={12} />
              </button>
            )}
          </li>
        ))}
      </ul>
      {!disabled && (
        <input
          id={id}
          aria-label={`${label}: ${t('LblAddTag')}`}
          value={text}
          placeholder={t('LblAddTag')}
          aria-invalid={warn || undefined}
          onChange={(e) => {
            setText(e.target.value);
            setWarn(false);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ';' || e.key === ',') {
              e.preventDefault();
              add();
            }
          }}
          onBlur={add}
        />
      )}
      {warn && <span className="hint error-text">{t('MsgTagRepeated')}</span>}
    </div>
  );
};

const DurationEditor = ({ id, value, onChange, disabled, describedBy, invalid }: { id: string; value: number | null; onChange: (v: number | null) => void; disabled: boolean; describedBy?: string; invalid: boolean }) => {
  const t = useT();
  const [text, setText] = useState<string | null>(null);
  const [bad, setBad] = useState(false);
  return (
    <>
      <input
        id={id}
        inputMode="numeric"
        disabled={disabled}
        aria-describedby={describedBy}
        aria-invalid={bad || invalid || undefined}
        placeholder="0:00:00"
        title={t('LblDurationHint')}
        value={text ?? (value === null ? '' : formatDurationInput(value))}
        onChange={(e) => {
          setText(e.target.value);
          const parsed = parseDuration(e.target.value);
          setBad(!isRight(parsed));
          if (isRight(parsed)) onChange(parsed.right);
        }}
        onBlur={() => !bad && setText(null)}
      />
      <span className="hint">{t('LblDurationHint')}</span>
    </>
  );
};

/** Option sets: radio-like choices for 5 or fewer options, else a dropdown (spec 001 section 9), rich-option colours. */
const OptionEditor = ({ id, p, options, value, onChange, disabled, label, describedBy, invalid, compact }: { id: string; p: Property; options: RichOption[]; value: number | null; onChange: (v: number | null) => void; disabled: boolean; label: string; describedBy?: string; invalid: boolean; compact?: boolean }) => {
  const t = useT();
  if (!compact && optionPresentation({ ...p, richOptions: options }) === 'radio') {
    return (
      <div className="choices" role="radiogroup" aria-label={label} aria-describedby={describedBy} aria-invalid={invalid || undefined} id={id}>
        {options.map((o) => (
          <label key={o.value} className={`choice ${value === o.value ? 'on' : ''}`} style={o.color ? { ['--choice' as string]: o.color } : undefined}>
            <input type="radio" name={id} value={o.value} checked={value === o.value} disabled={disabled} onChange={() => onChange(o.value)} onClick={() => value === o.value && !hasFlag(p, 'Required') && onChange(null)} />
            {o.color && <span className="dot" style={{ background: o.color }} aria-hidden="true" />}
            {o.label}
          </label>
        ))}
      </div>
    );
  }
  const current = options.find((o) => o.value === value);
  return (
    <div className="select-wrap">
      {current?.color && <span className="dot select-dot" style={{ background: current.color }} aria-hidden="true" />}
      <select id={id} disabled={disabled} aria-labelledby={`${id}-label`} aria-describedby={describedBy} aria-invalid={invalid || undefined} value={value ?? ''} onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))} className={current?.color ? 'has-dot' : ''}>
        <option value="">{t('LblNone')}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {value !== null && !current && <option value={value}>{value}</option>}
      </select>
    </div>
  );
};

/** Multi-select: an integer bitmap over the options (spec 001 section 3). */
const MultiSelectEditor = ({ id, options, value, onChange, disabled, label }: { id: string; options: RichOption[]; value: number; onChange: (v: number | null) => void; disabled: boolean; label: string }) => {
  const chosen = new Set(fromBitmap(value));
  return (
    <div className="choices" role="group" aria-label={label} id={id}>
      {options.map((o) => (
        <label key={o.value} className={`choice ${chosen.has(o.value) ? 'on' : ''}`}>
          <input
            type="checkbox"
            checked={chosen.has(o.value)}
            disabled={disabled}
            onChange={() => {
              const next = toggleBit(value, o.value);
              onChange(next === 0 ? null : next);
            }}
          />
          {o.color && <span className="dot" style={{ background: o.color }} aria-hidden="true" />}
          {o.label}
        </label>
      ))}
    </div>
  );
};

const writeInKey = (entity: string, field: string) => `tessera.writeIn.${entity}.${field}`;
/** Write-in values are remembered locally per entity and field, never duplicating the fixed options. */
const rememberWriteIn = (entity: string, field: string, value: string, fixed: string[]) => {
  if (!value || fixed.includes(value)) return;
  const list: string[] = JSON.parse(local.get(writeInKey(entity, field)) ?? '[]');
  if (!list.includes(value)) local.set(writeInKey(entity, field), JSON.stringify([...list, value].slice(-50)));
};

/** The attributes every editor's input carries: named by its field's label (the label element has the id `${id}-label`). */
type Common = { id: string; disabled: boolean; 'aria-describedby'?: string; 'aria-invalid'?: true; 'aria-labelledby': string };
type Editor = (props: EditorProps & { common: Common; options: RichOption[] }) => React.ReactNode;

const LookupEditor: Editor = ({ id, p, value, onChange, disabled, describedBy, invalid, label, record, entityName }) => (
  <LookupInput id={id} label={label} targets={p.targets ?? []} value={value && typeof value === 'object' ? (value as LookupValue) : null} onChange={(v) => onChange(v)} disabled={disabled} describedBy={describedBy} invalid={invalid} self={{ entity: entityName, id: record.id === undefined || record.id === null ? undefined : String(record.id) }} />
);

const BooleanEditor: Editor = ({ common, value, onChange }) => (
  <label className="switch">
    <input type="checkbox" role="switch" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
    <span className="switch-track" aria-hidden="true" />
  </label>
);

const DateTimeEditor: Editor = ({ p, common, value, onChange }) => {
  const t = useT();
  if (!hasFlag(p, 'DateOnly')) return <input type="datetime-local" {...common} value={typeof value === 'string' ? toLocalInput(value) : ''} onChange={(e) => onChange(fromLocalInput(e.target.value))} />;
  const input = <input type="date" {...common} value={typeof value === 'string' ? value.slice(0, 10) : ''} onChange={(e) => onChange(e.target.value || null)} />;
  // An Age field shows the age beside the date (months below one year).
  const age = hasFlag(p, 'Age') && typeof value === 'string' && value ? ageDisplay(value, new Date().toISOString().slice(0, 10)) : undefined;
  if (!age) return input;
  return (
    <>
      {input}
      <span className="hint">{t(age.unit === 'years' ? 'MsgAgeYears' : 'MsgAgeMonths', { n: age.value })}</span>
    </>
  );
};

/** A number field: an option set (single or multi-select), a duration, or a number input (Money with its currency). */
const NumberEditor: Editor = (props) => {
  const { id, p, common, options, value, record, onChange, disabled, describedBy, invalid } = props;
  if (options.length > 0) return <OptionSetEditor {...props} />;
  const column = FIELD_TYPES[p.type].column;
  if (hasFlag(p, 'Duration')) return <DurationEditor id={id} value={typeof value === 'number' ? value : null} onChange={onChange} disabled={disabled} describedBy={describedBy} invalid={invalid} />;
  const step = column === 'integer' ? 1 : p.precision !== undefined ? 10 ** -p.precision : 'any';
  const input = (
    <input
      type="number"
      inputMode={column === 'integer' ? 'numeric' : 'decimal'}
      step={step}
      {...common}
      value={typeof value === 'number' ? value : ''}
      onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
    />
  );
  if (column !== 'money') return input;
  const c = currencyOf(record);
  return (
    <div className="adorned">
      {input}
      <span className="adornment" aria-label={c?.code ?? 'EUR'}>
        {c?.symbol ?? '€'}
      </span>
    </div>
  );
};

const OptionSetEditor: Editor = ({ id, p, options, value, record, onChange, disabled, label, describedBy, invalid, compact }) => {
  const offered = dependentOptions(options, record);
  if (hasFlag(p, 'MultiSelect')) return <MultiSelectEditor id={id} options={offered} value={typeof value === 'number' ? value : 0} onChange={onChange} disabled={disabled} label={label} />;
  return <OptionEditor id={id} p={p} options={offered} value={typeof value === 'number' ? value : null} onChange={onChange} disabled={disabled} label={label} describedBy={describedBy} invalid={invalid} compact={compact} />;
};

/** Ids, versions and bytes are shown, never typed (an option set of them still offers its options). */
const ReadOnlyEditor: Editor = (props) =>
  props.options.length > 0 ? <OptionSetEditor {...props} /> : <input {...props.common} disabled value={props.value === null || props.value === undefined ? '' : String(props.value)} readOnly />;

/** Texts: tags, multi-line or JSON, write-in with suggestions, image or file addresses, e-mail, URL, phone or plain. */
const StringEditor: Editor = ({ p, f, common, options, value, onChange, disabled, label, entityName }) => {
  const listId = useId();
  const text = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  if (isTagField(p, f)) return <TagsEditor id={common.id} value={text} onChange={onChange} disabled={disabled} label={label} />;
  if (hasFlag(p, 'MultiLine') || hasFlag(p, 'Json')) {
    return <textarea {...common} className={hasFlag(p, 'Json') ? 'mono' : undefined} rows={hasFlag(p, 'Json') ? 8 : 4} maxLength={p.max} value={text} onChange={(e) => onChange(e.target.value)} />;
  }
  if (options.length > 0) {
    // A string with options: a write-in field (free text with suggestions).
    const fixed = options.map((o) => o.label);
    const remembered: string[] = hasFlag(p, 'WriteIn') ? JSON.parse(local.get(writeInKey(entityName, p.logicalName)) ?? '[]') : [];
    return (
      <>
        <input {...common} list={listId} maxLength={p.max} value={text} onChange={(e) => onChange(e.target.value)} onBlur={() => hasFlag(p, 'WriteIn') && rememberWriteIn(entityName, p.logicalName, text, fixed)} />
        <datalist id={listId}>
          {[...fixed, ...remembered.filter((r) => !fixed.includes(r))].map((o) => (
            <option key={o} value={o} />
          ))}
        </datalist>
      </>
    );
  }
  // A stored file where no record form uploads (list cells); the form draws files/file-field.tsx (field-row.tsx).
  if (hasFlag(p, 'Image') || hasFlag(p, 'File')) return <StoredFileLink id={common.id} name={text} label={label} />;
  const type = hasFlag(p, 'Email') ? 'email' : hasFlag(p, 'Url') ? 'url' : hasFlag(p, 'Phone') ? 'tel' : 'text';
  const href = text && (type === 'email' ? `mailto:${text}` : type === 'url' ? (/^https?:\/\//.test(text) ? text : `https://${text}`) : type === 'tel' ? `tel:${text}` : '');
  return (
    <div className={href ? 'adorned' : undefined}>
      <input type={type} {...common} maxLength={p.max} autoComplete="off" value={text} onChange={(e) => onChange(e.target.value)} />
      {href && (
        <a className="adornment link" href={href} target={type === 'url' ? '_blank' : undefined} rel="noreferrer" aria-label={`${label}: ${text}`}>
          <Icon name={type === 'url' ? 'external' : 'link'} size={16} />
        </a>
      )}
    </div>
  );
};

/** The editor of each property type (one table: a new type is a compile error until it has one). */
export const editors = {
  String: StringEditor,
  Integer: NumberEditor,
  Decimal: NumberEditor,
  Float: NumberEditor,
  Money: NumberEditor,
  DateTime: DateTimeEditor,
  Guid: ReadOnlyEditor,
  Lookup: LookupEditor,
  Boolean: BooleanEditor,
  Binary: ReadOnlyEditor,
  VersionNumber: ReadOnlyEditor,
} satisfies Record<PropertyType, Editor>;

/** The editor of one field, chosen by its property type and flags (spec 001 section 2). */
export const FieldEditor = (props: EditorProps) => {
  const { id, p, disabled, invalid, describedBy } = props;
  const common: Common = { id, disabled, 'aria-describedby': describedBy, 'aria-invalid': invalid || undefined, 'aria-labelledby': `${id}-label` };
  const Edit = editors[p.type];
  return <Edit {...props} common={common} options={optionsOf(p)} />;
};
