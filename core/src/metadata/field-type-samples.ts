import type { Property } from './entity.js';

/**
 * One field of each property type, and the flag variants whose values differ (DateOnly, option sets):
 * the sample entity of the field-type round-trip properties (core and the store contract suites).
 */
export const FIELD_TYPE_SAMPLES: Property[] = [
  { logicalName: 'text', displayName: 'Text', type: 'String', max: 40 },
  { logicalName: 'qty', displayName: 'Quantity', type: 'Integer' },
  { logicalName: 'ratio', displayName: 'Ratio', type: 'Decimal' },
  { logicalName: 'weight', displayName: 'Weight', type: 'Float' },
  { logicalName: 'price', displayName: 'Price', type: 'Money' },
  { logicalName: 'seen', displayName: 'Seen', type: 'DateTime' },
  { logicalName: 'due', displayName: 'Due', type: 'DateTime', flags: ['DateOnly'] },
  { logicalName: 'ref', displayName: 'Reference', type: 'Guid' },
  { logicalName: 'parentid', displayName: 'Parent', type: 'Lookup', targets: ['sample'] },
  { logicalName: 'active', displayName: 'Active', type: 'Boolean' },
  { logicalName: 'blob', displayName: 'Blob', type: 'Binary' },
  {
    logicalName: 'kind',
    displayName: 'Kind',
    type: 'Integer',
    flags: ['OptionSet'],
    richOptions: [
      { value: 1, label: 'Small' },
      { value: 2, label: 'Large' },
    ],
  },
  {
    logicalName: 'tags',
    displayName: 'Tags',
    type: 'Integer',
    flags: ['OptionSet', 'MultiSelect'],
    options: [
      { value: 0, label: 'A' },
      { value: 3, label: 'B' },
    ],
  },
];
