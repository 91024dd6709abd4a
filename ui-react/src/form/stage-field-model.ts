import type { FieldValue, Property, RichOption } from '../core.js';

/**
 * The stage field (spec 001 section 4 "Stage field"): an option set drawn as a row of steps.
 * Selecting a step sets the field value and the current step is highlighted; a step may group
 * several values, chosen from a menu; the default value is used when the field is empty.
 * Pure functions of the property and the form field's customComponentParameters, tested without a DOM.
 */

/** The form field's customComponent that draws a field as steps. */
export const STAGE_COMPONENT = 'stage';

/** One step: the option values it stands for (one, or a group chosen from a menu). */
export type StageStep = { readonly options: readonly RichOption[] };

const isNumberList = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number');

/**
 * The steps of a stage field, in order. Without parameters each option is a step. With
 * `customComponentParameters.steps` (a list of value lists, or of `{ values }`) each entry is a
 * step of those values; values of no entry come after as steps of their own, so an option is
 * never unreachable, and unknown values are left out.
 */
export const stageSteps = (options: readonly RichOption[], params?: Record<string, unknown>): StageStep[] => {
  const raw = Array.isArray(params?.steps) ? (params.steps as unknown[]) : [];
  const byValue = new Map(options.map((o) => [o.value, o]));
  const used = new Set<number>();
  const steps: StageStep[] = [];
  for (const entry of raw) {
    const values = isNumberList(entry)
      ? entry
      : entry && typeof entry === 'object' && isNumberList((entry as { values?: unknown }).values)
        ? (entry as { values: number[] }).values
        : [];
    const group: RichOption[] = [];
    for (const v of values) {
      const o = byValue.get(v);
      if (!o || used.has(v)) continue;
      used.add(v);
      group.push(o);
    }
    if (group.length > 0) steps.push({ options: group });
  }
  for (const o of options) if (!used.has(o.value)) steps.push({ options: [o] });
  return steps;
};

const asNumber = (v: FieldValue | undefined | unknown): number | undefined => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
};

/** The value the field stands at: its own, or the property's default when it is empty (spec 001 section 4). */
export const stageValue = (value: FieldValue | undefined, p: Pick<Property, 'defaultValue'>): number | undefined =>
  asNumber(value) ?? asNumber(p.defaultValue);

/** The index of the step holding the value, -1 when none does. */
export const currentStep = (steps: readonly StageStep[], value: number | undefined): number =>
  value === undefined ? -1 : steps.findIndex((s) => s.options.some((o) => o.value === value));

/** A step's label: the chosen value's in a group that holds it, else its values' labels joined. */
export const stepLabel = (step: StageStep, value: number | undefined): string =>
  step.options.find((o) => o.value === value)?.label ?? step.options.map((o) => o.label).join(' / ');

/** What selecting a step does: one value is set at once; a group opens its menu (or keeps a value it already holds). */
export type StepSelection = { _tag: 'Set'; value: number } | { _tag: 'Menu' };
export const selectStep = (step: StageStep): StepSelection =>
  step.options.length === 1 ? { _tag: 'Set', value: step.options[0]!.value } : { _tag: 'Menu' };
