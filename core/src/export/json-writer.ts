/**
 * JSON export: an array of records as /api/fetch returns them (issue 7), written record by
 * record so that a large export is streamed. `__proto__` never appears as a key: JSON.stringify
 * of store records only writes own fields.
 */
export const JSON_EXPORT_START = '[';
export const JSON_EXPORT_END = '\n]\n';

export const jsonExportItem = (record: Readonly<Record<string, unknown>>, first: boolean): string =>
  `${first ? '\n' : ',\n'}${JSON.stringify(record)}`;
