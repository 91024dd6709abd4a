import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_CALLS, callLine } from '@tessera/core/internal';

const DOC = fileURLToPath(new URL('../../../docs/api.md', import.meta.url));
const START = '<!-- calls:start -->';
const END = '<!-- calls:end -->';

/** The list of calls as docs/api.md shows it between the markers. */
const documented = (text: string): string => {
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/api.md has no ${START} ... ${END} section`);
  return text.slice(from + START.length, to).trim();
};

const generated = (): string => API_CALLS.map(callLine).join('\n');

describe('issue 12 point 4: docs/api.md lists the calls of the route table', () => {
  it('the list in docs/api.md is the route table (TESSERA_UPDATE_API_DOC=1 rewrites it)', () => {
    const text = readFileSync(DOC, 'utf8');
    if (process.env.TESSERA_UPDATE_API_DOC === '1') {
      const from = text.indexOf(START) + START.length;
      writeFileSync(DOC, `${text.slice(0, from)}\n${generated()}\n${text.slice(text.indexOf(END))}`);
      return;
    }
    expect(documented(text)).toBe(generated());
  });

  it('every call of the table is under the paths docs/api.md names (/api/ and /auth/)', () => {
    for (const c of API_CALLS) expect(readFileSync(DOC, 'utf8')).toContain(`\`${c.method} ${c.path}\``);
  });
});
