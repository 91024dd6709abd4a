import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { RichOption } from './entity.js';
import {
  parseRichOptionLine,
  parseRichOptionLines,
  printRichOptionLine,
  printRichOptionLines,
} from './rich-options.js';

const ok = <A>(e: { _tag: 'Left'; left: unknown } | { _tag: 'Right'; right: A }): A => {
  if (e._tag === 'Left') throw new Error(JSON.stringify(e.left));
  return e.right;
};

/** Field text as an administrator may type it: any characters, including ; \ and line breaks, but not blank at the edges. */
const fieldText = fc
  .string({
    unit: fc.constantFrom('a', 'Z', '7', ' ', ';', '\\', '\n', '\r', '#', 'é', 'n', '.', '-'),
    minLength: 1,
    maxLength: 12,
  })
  .filter((s) => s.trim() === s && s !== '');
const richOption: fc.Arbitrary<RichOption> = fc
  .record(
    {
      value: fc.integer({ min: -1000, max: 1_000_000 }),
      label: fieldText,
      color: fieldText,
      icon: fieldText,
      depfield: fieldText,
      depvalue: fieldText,
    },
    { requiredKeys: ['value', 'label'] },
  )
  .map((o) => o as RichOption);

describe('rich option lines VALUE;LABEL;COLOR;ICON;DEPENDENT_FIELD;DEPENDENT_FIELD_VALUE (spec 000 section 3)', () => {
  it('parsing the printed lines gives the options back (round trip)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(richOption, { selector: (o) => o.value, maxLength: 8 }), (options) => {
        const parsed = parseRichOptionLines(printRichOptionLines(options));
        expect(parsed).toEqual({ _tag: 'Right', right: options });
      }),
    );
  });

  it('printing the parsed lines of printed options is stable', () => {
    fc.assert(
      fc.property(richOption, (o) => {
        const line = printRichOptionLine(o);
        expect(printRichOptionLine(ok(parseRichOptionLine(line)))).toBe(line);
        expect(line.includes('\n')).toBe(false);
      }),
    );
  });

  it('the six fields map to value, label, color, icon, depfield and depvalue', () => {
    expect(ok(parseRichOptionLine('21;Warranty repair;#c62828;build;workordertype;2'))).toEqual({
      value: 21,
      label: 'Warranty repair',
      color: '#c62828',
      icon: 'build',
      depfield: 'workordertype',
      depvalue: '2',
    });
  });

  it('a semicolon inside a label is written \\; and a backslash \\\\', () => {
    const o: RichOption = { value: 3, label: 'Sales; Marketing \\ PR' };
    expect(printRichOptionLine(o)).toBe('3;Sales\\; Marketing \\\\ PR');
    expect(ok(parseRichOptionLine('3;Sales\\; Marketing \\\\ PR'))).toEqual(o);
  });

  it('any other backslash is kept as typed', () => {
    expect(ok(parseRichOptionLine('1;C:\\temp'))).toEqual({ value: 1, label: 'C:\\temp' });
  });

  it('empty fields are absent, trailing ones are not printed, fields are trimmed, a missing label is the value', () => {
    expect(ok(parseRichOptionLine(' 2 ; Open ;;star'))).toEqual({ value: 2, label: 'Open', icon: 'star' });
    expect(printRichOptionLine({ value: 2, label: 'Open', icon: 'star' })).toBe('2;Open;;star');
    expect(ok(parseRichOptionLine('7'))).toEqual({ value: 7, label: '7' });
  });

  it('blank lines are skipped', () => {
    expect(ok(parseRichOptionLines('1;A\n\n  \r\n2;B\n'))).toEqual([
      { value: 1, label: 'A' },
      { value: 2, label: 'B' },
    ]);
  });

  it('a value that is not an integer is an error naming the line', () => {
    const r = parseRichOptionLines('1;A\nx;B');
    expect(isLeft(r) && r.left.message).toBe("Invalid option line 2: the value 'x' is not an integer");
    expect(isLeft(parseRichOptionLine('1.5;A'))).toBe(true);
  });

  it('more than six fields is an error', () => {
    const r = parseRichOptionLine('1;A;red;star;f;v;extra');
    expect(isLeft(r) && r.left.message).toContain('more than 6 fields');
  });

  it('a repeated value is an error', () => {
    const r = parseRichOptionLines('1;A\n1;B');
    expect(isLeft(r) && r.left.message).toBe('Invalid option line 2: the value 1 is repeated');
    expect(isRight(parseRichOptionLines(''))).toBe(true);
  });
});
