/** The units of a file size, B to PB, each 1024 times the previous. */
export const FILE_SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;
/** One of the units B to PB. */
export type FileSizeUnit = (typeof FILE_SIZE_UNITS)[number];

/** A file size in the largest unit that keeps the value at least 1, rounded to one decimal. */
export const fileSize = (bytes: number): { value: number; unit: FileSizeUnit } => {
  let value = Math.max(0, bytes);
  let i = 0;
  while (value >= 1024 && i < FILE_SIZE_UNITS.length - 1) {
    value /= 1024;
    i++;
  }
  const rounded = i === 0 ? Math.round(value) : Math.round(value * 10) / 10;
  // Rounding 1023.96 KB up gives 1024 KB: show it as 1 MB instead.
  if (rounded >= 1024 && i < FILE_SIZE_UNITS.length - 1) return { value: 1, unit: FILE_SIZE_UNITS[i + 1] };
  return { value: rounded, unit: FILE_SIZE_UNITS[i] };
};

/** A file size as text: '512 B', '1.5 KB', '3 MB' (the decimal separator is the caller's). */
export const formatFileSize = (bytes: number, decimalSeparator = '.'): string => {
  const { value, unit } = fileSize(bytes);
  return `${String(value).replace('.', decimalSeparator)} ${unit}`;
};
