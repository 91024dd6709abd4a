import { hasFlag, type Entity, type Property } from '../metadata/entity.js';
import { optionsOf } from '../metadata/field-values.js';
import type { QuickFilter, QuickFilterOption, QuickFilterOptionValue } from '../metadata/view.js';
import { AGE_FILTER_MAX } from '../metadata/view.js';
import { DATE_RANGE_OPTIONS } from '../dates/date-range.js';
import { placeholderNames } from './placeholders.js';
import { visibleOptions } from './quick-filters.js';

/**
 * What a quick filter offers to choose from (spec 001 section 2), decided once for the bar and the
 * query: the options, the control of a custom filter, and the option a mustSelect filter falls back
 * to when its definition names none.
 */

/** The property a quick filter reads: propertyName, else ownerid for an owner filter, else its name. */
export const quickFilterProperty = (def: QuickFilter, entity: Entity | undefined): Property | undefined => {
  const name = def.propertyName ?? (def.type === 'owner' ? 'ownerid' : def.name);
  return entity?.properties.find((p) => p.logicalName === name);
};

/**
 * The options of an options or custom filter before includedOptions/excludedOptions: directOptions,
 * else the filter's richOptions, else the property's options (rich ones first). Option values of a
 * date filter are the date quick options, of an age filter 0 to 99; labels of those are the UI's.
 */
export const baseOptions = (def: QuickFilter, property: Property | undefined): QuickFilterOption[] => {
  if (def.directOptions !== undefined && def.directOptions.length > 0) return def.directOptions;
  if (def.richOptions !== undefined && def.richOptions.length > 0) return def.richOptions;
  switch (def.type) {
    case 'date':
      return DATE_RANGE_OPTIONS.map((value) => ({ value, label: value }));
    case 'age':
      return Array.from({ length: AGE_FILTER_MAX + 1 }, (_, value) => ({ value, label: String(value) }));
    case 'owner':
      // "Mine": the core replaces {{userid}} with the signed-in user.
      return [{ value: '{{userid}}', label: 'Mine' }];
    case 'options':
    case 'custom':
      return property === undefined ? [] : optionsOf(property);
    default:
      return [];
  }
};

/** The options a filter shows: its base options narrowed by includedOptions and excludedOptions. */
export const quickFilterOptions = (def: QuickFilter, property: Property | undefined): QuickFilterOption[] =>
  visibleOptions(def, baseOptions(def, property));

/** How a custom filter is set (decision in docs/ui.md "Quick filters"). */
export type CustomFilterControl =
  /** options given (directOptions, richOptions, includedOptions on the property's): pick one; it is `{{value}}` */
  | 'options'
  /** the customFetch reads `{{value}}` and no options are given: an input (minimumLength applies) */
  | 'input'
  /** the customFetch reads no `{{value}}`: an on/off switch; on applies it */
  | 'toggle';

const fetchText = (def: QuickFilter): string => JSON.stringify(def.customFetch ?? {});

export const customFilterControl = (def: QuickFilter, property: Property | undefined): CustomFilterControl => {
  if (quickFilterOptions(def, property).length > 0) return 'options';
  return placeholderNames(fetchText(def)).includes('value') ? 'input' : 'toggle';
};

/** The selection of a custom filter switched on (the value its customFetch does not read). */
export const TOGGLE_ON = 1;

/**
 * The filter as the bar and the query use it: a mustSelect filter without a defaultOption falls
 * back to its first option (spec 001 section 2: "it falls back to its default option"; a filter
 * that names none has its first as default), so it is never empty. Other filters are unchanged.
 */
export const completeQuickFilter = (def: QuickFilter, entity: Entity | undefined): QuickFilter => {
  if (def.mustSelect !== true || def.defaultOption !== undefined) return def;
  const first: QuickFilterOptionValue | undefined =
    def.type === 'custom' && customFilterControl(def, quickFilterProperty(def, entity)) === 'toggle'
      ? TOGGLE_ON
      : quickFilterOptions(def, quickFilterProperty(def, entity))[0]?.value;
  return first === undefined ? def : { ...def, defaultOption: first };
};

/** Whether a property's options are a multi-select bitmap (an options filter compares one value, so it cannot filter those). */
export const isBitmapOptions = (p: Property): boolean => hasFlag(p, 'MultiSelect');
