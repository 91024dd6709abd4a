/**
 * The core rules the UI reuses (ARCHITECTURE.md: the browser runs the same merge, required
 * check, permissions and formatting as the server). One import point for the screens: the
 * public API, plus the few core modules the public index does not list yet.
 */
export * from '@tessera/core';
export {
  quickFiltersToFetch,
  applyQuickFilterFragment,
  visibleQuickFilters,
  visibleOptions,
  initialSelection,
  effectiveSelection,
  isEmptySelection,
  type QuickFilterSelection,
} from '../../core/src/query/quick-filters.js';
export { DATE_RANGE_OPTIONS, type DateRangeOption } from '../../core/src/dates/date-range.js';
export { formatMoney } from '../../core/src/money/format-money.js';
export { parseDuration, formatDurationInput, formatDuration } from '../../core/src/records/duration.js';
export { cloneRecord } from '../../core/src/records/clone.js';
export { dependentOptions, optionPresentation } from '../../core/src/records/options.js';
export { fromBitmap, toggleBit } from '../../core/src/records/multi-select.js';
export { splitTags, joinTags, addTag, hasTag, tagSummary } from '../../core/src/records/tags.js';
export { checkRequired } from '../../core/src/records/required.js';
export { csvCell } from '../../core/src/export/csv-cell.js';
export { neutralizeFormula } from '../../core/src/export/formula-neutralization.js';
export { Form as FormCodec } from '../../core/src/metadata/form.js';
