import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as core from '../index.js';

/** Other hosts embed the core: these names are its public API (issue 3), kept stable. */
const PUBLIC_API = [
  'packMask',
  'unpackMask',
  'effectivePermissions',
  'canAccess',
  'readScope',
  'checkPermissionString',
  'mergeOnConflict',
  'changeSet',
  'checkRequired',
  'mealAllowance',
  'lineItemTotals',
  'routeTotals',
  'formatMoney',
  'dateRange',
  'solvePuzzle',
  'verifyPuzzle',
] as const;

const indexText = readFileSync(fileURLToPath(new URL('../index.ts', import.meta.url)), 'utf8');
/** The one-line doc comments of the index, each just above an export line. */
const oneLineDocs = indexText
  .split('\n')
  .map((line, i, lines) => ({ line, next: lines[i + 1] ?? '' }))
  .filter(({ line, next }) => /^\/\*\*.*\*\/$/.test(line.trim()) && next.startsWith('export '))
  .map(({ line }) => line);

describe('the public API of @tessera/core (issue 3)', () => {
  it.each(PUBLIC_API)('%s is exported from the core as a function', (name) => {
    expect(typeof (core as Record<string, unknown>)[name]).toBe('function');
  });

  it.each(PUBLIC_API)('%s is documented in one line in core/src/index.ts', (name) => {
    expect(oneLineDocs.some((doc) => new RegExp(`\\b${name}\\b`).test(doc))).toBe(true);
  });
});
