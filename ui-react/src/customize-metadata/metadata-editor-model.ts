import { batch, computed, signal } from '@preact/signals-react';
import type { Entity, MessageKey, MetadataAppliedAnswer, MetadataApplyBody, MetadataChangeBody, MetadataPlanAnswer, Property, PropertyFlag, PropertyType, RichOption } from '../core.js';
import { FIELD_TYPES, IDENTIFIER, IDENTIFIER_MAX, isSystemField, parseRichOptionLines, printRichOptionLines, PROPERTY_FLAGS, RESERVED_TABLE_PREFIXES } from '../core.js';

/**
 * /{appid}/customizemetadata as a model of signals (issue 15; docs/schema.md "Metadata editor"):
 * the organization's entities as the server sent them (English texts, not the session's
 * translated ones), the drafts an administrator edits, the change they make (create, update,
 * remove), its migration plan ("Review changes") and its apply, where every step that can lose
 * data must be confirmed one by one. No DOM: tested in vitest with a fake client.
 */

/** What the model needs of the API client. */
export type MetadataEditorApi = {
  getUserContext(): Promise<{ metaDict: Record<string, Entity> }>;
  metadataPlan(change: MetadataChangeBody): Promise<MetadataPlanAnswer>;
  metadataApply(body: MetadataApplyBody): Promise<MetadataAppliedAnswer>;
};

export type Phase = 'loading' | 'editing' | 'planning' | 'review' | 'applying' | 'failed';
export type EntityState = 'new' | 'changed' | 'removed' | 'same';
export type DestructiveStep = MetadataPlanAnswer['destructive'][number];

/** Which editors a property type has, read from the field-type registry (no type is named here). */
export type TypeFacets = { length: boolean; precision: boolean; targets: boolean; options: boolean };
export const facetsOf = (type: PropertyType): TypeFacets => {
  const r = FIELD_TYPES[type];
  return {
    length: r.column === 'string',
    precision: r.numeric && r.column !== 'integer',
    targets: r.stored === 'lookup',
    // Option values are whole numbers (spec 000 section 3): the types stored as an integer column.
    options: r.column === 'integer',
  };
};

/** The types an administrator may give a property: those the server does not set itself (VersionNumber). */
export const ADDABLE_TYPES: readonly PropertyType[] = (Object.keys(FIELD_TYPES) as PropertyType[]).filter((t) => !FIELD_TYPES[t].serverSet);
export const FLAGS: readonly PropertyFlag[] = PROPERTY_FLAGS.filter((f) => f !== 'None');

const key = (name: string) => name.toLowerCase();

/** Why a new logical name cannot be used (the schema model's rules), or null. */
export const nameProblem = (name: string, taken: readonly string[]): MessageKey | null => {
  if (!IDENTIFIER.test(name) || name.length > IDENTIFIER_MAX) return 'MetaNameInvalid';
  if (RESERVED_TABLE_PREFIXES.some((p) => key(name).startsWith(p))) return 'MetaNameReserved';
  if (taken.some((t) => key(t) === key(name))) return 'MetaNameTaken';
  return null;
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The change of the drafts against the applied entities: only what differs is sent. */
export const changeOf = (
  applied: Readonly<Record<string, Entity>>,
  drafts: Readonly<Record<string, Entity>>,
  created: ReadonlySet<string>,
  removed: ReadonlySet<string>,
): Required<MetadataChangeBody> => ({
  create: [...created].filter((n) => drafts[n] && !removed.has(n)).map((n) => drafts[n]),
  update: Object.keys(drafts)
    .filter((n) => !created.has(n) && !removed.has(n) && applied[n] && !same(applied[n], drafts[n]))
    .map((n) => drafts[n]),
  remove: [...removed].filter((n) => applied[n] !== undefined),
});

export const entityStateOf = (name: string, applied: Readonly<Record<string, Entity>>, drafts: Readonly<Record<string, Entity>>, created: ReadonlySet<string>, removed: ReadonlySet<string>): EntityState =>
  removed.has(name) ? 'removed' : created.has(name) ? 'new' : drafts[name] && applied[name] && !same(drafts[name], applied[name]) ? 'changed' : 'same';

/** A property's options as Extended Options lines (its plain options read as rich ones). */
export const optionLinesOf = (p: Property): string =>
  printRichOptionLines(p.richOptions ?? ((p.options ?? []) as Array<{ value?: number; label?: string }>).flatMap((o) => (typeof o.value === 'number' ? [{ value: o.value, label: o.label ?? String(o.value) }] : [])));

/** A property with the options of the lines (as richOptions; its plain options go), or the line's error. */
export const withOptionLines = (p: Property, text: string): { property: Property } | { error: string } => {
  const parsed = parseRichOptionLines(text);
  if (parsed._tag === 'Left') return { error: parsed.left.message };
  const { options: _plain, richOptions: _rich, ...rest } = p;
  return { property: parsed.right.length > 0 ? { ...rest, richOptions: parsed.right } : rest };
};

/** The lines as options for the preview: those that parse, line by line. */
export const previewOptions = (text: string): RichOption[] => {
  const out: RichOption[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const r = parseRichOptionLines(line);
    if (r._tag === 'Right') out.push(...r.right);
  }
  return out;
};

/** A property of a type as the editor adds it: the facets' defaults (a lookup targets the first other entity). */
export const newProperty = (logicalName: string, displayName: string, type: PropertyType, firstTarget?: string): Property => {
  const p: Property = { logicalName, displayName, type };
  const f = facetsOf(type);
  if (f.length) p.max = 100;
  if (f.targets && firstTarget) p.targets = [firstTarget];
  return p;
};

/** A property changed to another type: what belongs to the old type only is dropped. */
export const retyped = (p: Property, type: PropertyType, firstTarget?: string): Property => {
  const f = facetsOf(type);
  const { max, precision, targets, options, richOptions, ...rest } = p;
  return {
    ...rest,
    type,
    ...(f.length ? { max: max ?? 100 } : {}),
    ...(f.precision && precision !== undefined ? { precision } : {}),
    ...(f.targets ? { targets: targets ?? (firstTarget ? [firstTarget] : []) } : {}),
    ...(f.options && options ? { options } : {}),
    ...(f.options && richOptions ? { richOptions } : {}),
  };
};

export const toggledFlag = (p: Property, flag: PropertyFlag): Property => {
  const flags = p.flags ?? [];
  const next = flags.includes(flag) ? flags.filter((f) => f !== flag) : [...flags, flag];
  const { flags: _old, ...rest } = p;
  return next.length > 0 ? { ...rest, flags: next } : rest;
};

/** Every step that can lose data is confirmed (by its line, as the server checks it). */
export const allConfirmed = (plan: MetadataPlanAnswer | null, confirmed: ReadonlySet<string>): boolean =>
  !!plan && plan.destructive.every((d) => confirmed.has(d.step));

/** The text of a failed call: the server's `CODE: message` without the code, or the error's message. */
export const errorText = (e: unknown): string => {
  const text = (e as { text?: unknown })?.text;
  if (typeof text === 'string' && text) return text.replace(/^[A-Z_0-9]+: /, '');
  return e instanceof Error ? e.message : String(e);
};

export const metadataEditorModel = (api: MetadataEditorApi, options: { onApplied?: () => void } = {}) => {
  const applied = signal<Record<string, Entity>>({});
  const drafts = signal<Record<string, Entity>>({});
  const created = signal<ReadonlySet<string>>(new Set());
  const removed = signal<ReadonlySet<string>>(new Set());
  const selected = signal<string | null>(null);
  const search = signal('');
  const phase = signal<Phase>('loading');
  const error = signal<string | null>(null);
  const plan = signal<MetadataPlanAnswer | null>(null);
  const confirmed = signal<ReadonlySet<string>>(new Set());
  const appliedVersion = signal<number | null>(null);

  const entityOf = (name: string): Entity | undefined => drafts.value[name] ?? applied.value[name];
  const allNames = computed(() => [...new Set([...Object.keys(applied.value), ...created.value])].sort());
  const names = computed(() => {
    const q = search.value.trim().toLowerCase();
    return allNames.value.filter((n) => !q || n.toLowerCase().includes(q) || (entityOf(n)?.displayName ?? '').toLowerCase().includes(q));
  });
  const current = computed(() => (selected.value ? (entityOf(selected.value) ?? null) : null));
  const change = computed(() => changeOf(applied.value, drafts.value, created.value, removed.value));
  const changeCount = computed(() => change.value.create.length + change.value.update.length + change.value.remove.length);
  const stateOf = (name: string): EntityState => entityStateOf(name, applied.value, drafts.value, created.value, removed.value);
  const isNew = (name: string) => created.value.has(name);
  const canApply = computed(() => phase.value === 'review' && allConfirmed(plan.value, confirmed.value));

  /** Any edit invalidates a reviewed plan: back to editing. */
  const edited = () => {
    if (phase.value === 'review' || phase.value === 'failed') phase.value = 'editing';
    plan.value = null;
    confirmed.value = new Set();
  };

  const putDraft = (e: Entity) => {
    batch(() => {
      drafts.value = { ...drafts.value, [e.logicalName]: e };
      appliedVersion.value = null;
      edited();
    });
  };

  const load = async (): Promise<void> => {
    phase.value = 'loading';
    error.value = null;
    try {
      const ctx = await api.getUserContext();
      batch(() => {
        applied.value = ctx.metaDict;
        drafts.value = {};
        created.value = new Set();
        removed.value = new Set();
        if (selected.value && !ctx.metaDict[selected.value]) selected.value = null;
        plan.value = null;
        confirmed.value = new Set();
        phase.value = 'editing';
      });
    } catch (e) {
      batch(() => {
        error.value = errorText(e);
        phase.value = 'failed';
      });
    }
  };

  /** Creates a new entity (a draft until applied); the message key of the problem, or null. */
  const createEntity = (logicalName: string, displayName: string, displayNamePlural: string, link = false): MessageKey | null => {
    const problem = nameProblem(logicalName, allNames.value);
    if (problem) return problem;
    const e: Entity = { logicalName, displayName: displayName || logicalName, displayNamePlural: displayNamePlural || displayName || logicalName, properties: [], ...(link ? { type: 'many' as const } : {}) };
    batch(() => {
      created.value = new Set([...created.value, logicalName]);
      putDraft(e);
      selected.value = logicalName;
    });
    return null;
  };

  const updateEntity = (patch: Partial<Pick<Entity, 'displayName' | 'displayNamePlural'>>) => {
    const e = current.value;
    if (e) putDraft({ ...e, ...patch });
  };

  const removeEntity = (name: string) => {
    batch(() => {
      if (isNew(name)) {
        const { [name]: _gone, ...rest } = drafts.value;
        drafts.value = rest;
        created.value = new Set([...created.value].filter((n) => n !== name));
        if (selected.value === name) selected.value = null;
      } else removed.value = new Set([...removed.value, name]);
      edited();
    });
  };
  const restoreEntity = (name: string) => {
    batch(() => {
      removed.value = new Set([...removed.value].filter((n) => n !== name));
      edited();
    });
  };

  /** Adds a field to the selected entity; the message key of the problem, or null. */
  const addProperty = (logicalName: string, displayName: string, type: PropertyType): MessageKey | null => {
    const e = current.value;
    if (!e) return null;
    const problem = nameProblem(logicalName, e.properties.map((p) => p.logicalName));
    if (problem) return problem;
    const firstTarget = allNames.value.find((n) => n !== e.logicalName) ?? e.logicalName;
    putDraft({ ...e, properties: [...e.properties, newProperty(logicalName, displayName || logicalName, type, firstTarget)] });
    return null;
  };

  const updateProperty = (name: string, next: Property) => {
    const e = current.value;
    if (e) putDraft({ ...e, properties: e.properties.map((p) => (p.logicalName === name ? next : p)) });
  };

  const removeProperty = (name: string) => {
    const e = current.value;
    if (e) putDraft({ ...e, properties: e.properties.filter((p) => p.logicalName !== name) });
  };

  /** A property can be renamed, retyped or removed unless the system defines it; its logical name only while unapplied. */
  const isSystem = (e: Entity, name: string) => isSystemField(e, name);
  const isAppliedProperty = (entity: string, name: string) => (applied.value[entity]?.properties ?? []).some((p) => p.logicalName === name);

  const discard = () => {
    batch(() => {
      drafts.value = {};
      created.value = new Set();
      removed.value = new Set();
      if (selected.value && !applied.value[selected.value]) selected.value = null;
      edited();
      error.value = null;
      phase.value = 'editing';
    });
  };

  /** "Review changes": the plan of the change, or the server's validation message. */
  const review = async (): Promise<void> => {
    phase.value = 'planning';
    error.value = null;
    try {
      const p = await api.metadataPlan(change.value);
      batch(() => {
        plan.value = p;
        confirmed.value = new Set();
        phase.value = 'review';
      });
    } catch (e) {
      batch(() => {
        error.value = errorText(e);
        phase.value = 'editing';
      });
    }
  };

  const toggleConfirm = (step: string) => {
    const next = new Set(confirmed.value);
    if (next.has(step)) next.delete(step);
    else next.add(step);
    confirmed.value = next;
  };

  const backToEditing = () => {
    batch(() => {
      phase.value = 'editing';
      plan.value = null;
      confirmed.value = new Set();
    });
  };

  /** Applies the reviewed plan; then the applied metadata is loaded again (and the shell's through onApplied). */
  const apply = async (): Promise<void> => {
    const p = plan.value;
    if (!p || !allConfirmed(p, confirmed.value)) return;
    phase.value = 'applying';
    error.value = null;
    try {
      const done = await api.metadataApply({ ...change.value, version: p.version, confirm: p.destructive.map((d) => d.step) });
      options.onApplied?.();
      await load();
      appliedVersion.value = done.version;
    } catch (e) {
      batch(() => {
        error.value = errorText(e);
        // The plan may be stale (another administrator applied first): review it again.
        phase.value = 'editing';
        plan.value = null;
      });
    }
  };

  return {
    applied,
    drafts,
    created,
    removed,
    selected,
    search,
    phase,
    error,
    plan,
    confirmed,
    appliedVersion,
    allNames,
    names,
    current,
    change,
    changeCount,
    canApply,
    entityOf,
    stateOf,
    isNew,
    isSystem,
    isAppliedProperty,
    load,
    select: (name: string | null) => (selected.value = name),
    createEntity,
    updateEntity,
    removeEntity,
    restoreEntity,
    addProperty,
    updateProperty,
    removeProperty,
    discard,
    review,
    toggleConfirm,
    backToEditing,
    apply,
  };
};

export type MetadataEditorModel = ReturnType<typeof metadataEditorModel>;
