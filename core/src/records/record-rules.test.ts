import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import type { Entity, Property, RichOption } from '../metadata/entity.js';
import { ageDisplay } from './age.js';
import { cloneName, cloneRecord } from './clone.js';
import { formatDuration, formatDurationInput, parseDuration } from './duration.js';
import { ERROR_LOG_LIMIT, appendErrorLog } from './error-log.js';
import { fileSize, formatFileSize } from './file-size.js';
import { BITMAP_BITS, fromBitmap, toBitmap, toggleBit } from './multi-select.js';
import { dependentOptions, optionPresentation } from './options.js';
import { relativeTime, relativeTimeText } from './relative-time.js';
import { addTag, hasTag, joinTags, splitTags, tagSummary } from './tags.js';

describe('clone (spec 001 section 4)', () => {
  it("sets the name to 'Copy of {name}' and drops id, version, audit stamps and owner", () => {
    const source = {
      id: 'r1', versionnumber: 'v3', name: 'Acme', city: 'Wien', ownerid: { id: 'u2', name: 'systemuser' },
      createdon: '2024-01-01T00:00:00Z', createdby: { id: 'u2', name: 'systemuser' }, modifiedon: '2024-01-02T00:00:00Z',
      modifiedby: { id: 'u2', name: 'systemuser' }, statuscode: 1,
    };
    expect(cloneRecord(source)).toEqual({ name: 'Copy of Acme', city: 'Wien', statuscode: 1 });
    expect(cloneName('Acme')).toBe('Copy of Acme');
  });

  it('does not copy auto-numbers or secret fields', () => {
    const entity: Entity = {
      logicalName: 'invoice', displayName: 'Invoice', displayNamePlural: 'Invoices',
      properties: [
        { logicalName: 'number', displayName: 'Number', type: 'String', flags: ['AutoNumber'] },
        { logicalName: 'token', displayName: 'Token', type: 'String', secret: true },
      ],
    };
    expect(cloneRecord({ id: 'i1', name: 'INV', number: '2024-001', token: 's', total: 5 }, entity)).toEqual({ name: 'Copy of INV', total: 5 });
  });
});

describe('duration (spec 001 section 5)', () => {
  it('reads colon-separated hours:minutes:seconds as seconds', () => {
    const table: [string, number | null][] = [['1:30:15', 5415], ['2:05', 7500], ['3', 10800], ['0:0:45', 45], ['0:90', 5400], ['', null]];
    for (const [text, seconds] of table) expect(parseDuration(text)).toEqual({ _tag: 'Right', right: seconds });
  });

  it('rejects anything else, naming the input', () => {
    for (const bad of ['1:2:3:4', 'a:10', '-1:00', '1.5', '1::2']) {
      const r = parseDuration(bad);
      expect(r._tag === 'Left' && r.left.message).toBe(`Invalid duration: '${bad}' (expected hours:minutes:seconds)`);
    }
  });

  it('shows seconds as h:mm', () => {
    expect(formatDuration(5415)).toBe('1:30');
    expect(formatDuration(45)).toBe('0:00');
    expect(formatDuration(36000 + 540)).toBe('10:09');
    expect(formatDuration(100 * 3600)).toBe('100:00');
  });

  it('the editable form h:mm:ss reads back to the same seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (s) => {
        expect(parseDuration(formatDurationInput(s))).toEqual({ _tag: 'Right', right: s });
      }),
    );
  });
});

describe('tags (spec 001 sections 3, 5, 9)', () => {
  it("are joined with ';' and never repeated", () => {
    expect(joinTags(['vip', 'north', 'vip'])).toBe('vip;north');
    expect(joinTags(['VIP', 'vip', ' north '])).toBe('VIP;north');
    expect(joinTags([])).toBeNull();
    expect(splitTags('a;b;;a; c')).toEqual(['a', 'b', 'c']);
    expect(addTag(['a'], 'A')).toEqual(['a']);
    expect(hasTag(['North'], 'north ')).toBe(true);
  });

  it("summarize beyond the maximum as 'N more'", () => {
    expect(tagSummary(['a', 'b', 'c', 'd'], 2)).toEqual({ shown: ['a', 'b'], more: 2 });
  });

  it('split after join gives the tags back, without repeats, whatever the input', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 })), (tags) => {
        const once = splitTags(joinTags(tags));
        expect(splitTags(joinTags(once))).toEqual(once);
        expect(new Set(once.map((t) => t.toLowerCase())).size).toBe(once.length);
        for (const t of once) expect(t.includes(';')).toBe(false);
      }),
    );
  });
});

describe('multi-select bitmaps up to 32 bits (spec 001 sections 3, 9)', () => {
  it('set bit n for option value n', () => {
    expect(toBitmap([0, 2])).toEqual({ _tag: 'Right', right: 5 });
    expect(fromBitmap(5)).toEqual([0, 2]);
    expect(toBitmap([31])).toEqual({ _tag: 'Right', right: -2147483648 });
    expect(fromBitmap(2147483648)).toEqual([31]);
    expect(toggleBit(5, 2)).toBe(1);
    expect(BITMAP_BITS).toBe(32);
  });

  it('reject option values outside 0 to 31', () => {
    expect(toBitmap([32])._tag).toBe('Left');
    expect(toBitmap([-1])._tag).toBe('Left');
  });

  it('round trip any set of values 0 to 31', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 31 })), (values) => {
        const m = toBitmap(values);
        expect(isRight(m) && fromBitmap(m.right)).toEqual([...values].sort((a, b) => a - b));
      }),
    );
  });
});

describe('age display', () => {
  it('shows years from 2 years, else months', () => {
    expect(ageDisplay('2020-05-10', '2024-05-09')).toEqual({ unit: 'years', value: 3 });
    expect(ageDisplay('2022-05-10', '2024-05-10')).toEqual({ unit: 'years', value: 2 });
    expect(ageDisplay('2022-05-10', '2024-05-09')).toEqual({ unit: 'months', value: 23 });
    expect(ageDisplay('2024-04-20', '2024-05-10')).toEqual({ unit: 'months', value: 0 });
    expect(ageDisplay('2025-01-01', '2024-05-10')).toEqual({ unit: 'months', value: 0 });
    expect(ageDisplay('not a date', '2024-05-10')).toBeUndefined();
  });

  it('never decreases as time passes', () => {
    const day = fc.integer({ min: 0, max: 40_000 }).map((d) => new Date(Date.UTC(1950, 0, 1) + d * 86_400_000));
    fc.assert(
      fc.property(day, day, day, (birth, a, b) => {
        const [t1, t2] = a <= b ? [a, b] : [b, a];
        const months = (x: ReturnType<typeof ageDisplay>) => (x!.unit === 'years' ? x!.value * 12 : x!.value);
        const y1 = ageDisplay(birth, t1)!;
        const y2 = ageDisplay(birth, t2)!;
        expect(months(y2) >= months(y1) || (y1.unit === 'months' && y2.unit === 'years')).toBe(true);
      }),
    );
  });
});

describe('relative time of the activity feed (spec 001 section 2)', () => {
  const now = Date.parse('2024-05-10T12:00:00Z');
  it("under 60 seconds is '1 min ago', under an hour minutes, under a day hours, else the date", () => {
    const table: [number, string][] = [
      [0, '1 min ago'], [59_999, '1 min ago'], [60_000, '1 min ago'], [5 * 60_000 + 30_000, '5 min ago'],
      [59 * 60_000, '59 min ago'], [3_600_000, '1 hour ago'], [23 * 3_600_000 + 59 * 60_000, '23 hours ago'],
      [86_400_000, '2024-05-09'], [-30_000, '1 min ago'],
    ];
    for (const [ago, text] of table) expect(relativeTimeText(relativeTime(now - ago, now)!)).toBe(text);
    expect(relativeTime('yesterday', now)).toBeUndefined();
    expect(relativeTime('2024-05-01T08:00:00Z', new Date(now))).toEqual({ unit: 'date', date: new Date('2024-05-01T08:00:00Z') });
  });
});

describe('option sets', () => {
  const options: RichOption[] = [
    { value: 1, label: 'Europe' },
    { value: 10, label: 'Slovakia', depfield: 'region', depvalue: '1' },
    { value: 20, label: 'Kenya', depfield: 'region', depvalue: '2' },
  ];
  it('dependent options are filtered by the value of the depfield (spec 001 section 5)', () => {
    expect(dependentOptions(options, { region: 1 }).map((o) => o.label)).toEqual(['Europe', 'Slovakia']);
    expect(dependentOptions(options, { region: { id: '2', name: 'region' } }).map((o) => o.label)).toEqual(['Europe', 'Kenya']);
    expect(dependentOptions(options, {}).map((o) => o.label)).toEqual(['Europe']);
  });

  it('5 or fewer options (not multi-line) show radio-like, more use a dropdown (spec 001 section 9)', () => {
    const opts = (n: number) => Array.from({ length: n }, (_, i) => ({ value: i, label: `o${i}` }));
    const p = (n: number, flags: Property['flags'] = ['OptionSet']): Property => ({ logicalName: 'x', displayName: 'X', type: 'Integer', flags, options: opts(n) });
    expect(optionPresentation(p(5))).toBe('radio');
    expect(optionPresentation(p(6))).toBe('dropdown');
    expect(optionPresentation(p(3, ['OptionSet', 'MultiLine']))).toBe('dropdown');
    expect(optionPresentation(p(8, ['OptionSet', 'Radio']))).toBe('radio');
  });
});

describe('file sizes in B to PB', () => {
  it('use the largest unit that keeps the value at least 1, one decimal', () => {
    const table: [number, string][] = [
      [0, '0 B'], [512, '512 B'], [1023, '1023 B'], [1024, '1 KB'], [1536, '1.5 KB'], [1048575, '1 MB'],
      [5 * 1024 ** 2, '5 MB'], [1024 ** 3 * 2.25, '2.3 GB'], [1024 ** 4, '1 TB'], [1024 ** 5, '1 PB'], [1024 ** 6, '1024 PB'],
    ];
    for (const [bytes, text] of table) expect(formatFileSize(bytes)).toBe(text);
    expect(formatFileSize(1536, ',')).toBe('1,5 KB');
  });

  it('never shows 1024 or more of a unit below PB', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1024 ** 5 * 10, noNaN: true }), (b) => {
        const s = fileSize(b);
        if (s.unit !== 'PB') expect(s.value).toBeLessThan(1024);
      }),
    );
  });
});

describe('session error log (spec 000 section 8, 001 section 8)', () => {
  it('is kept under 1,000,000 characters by trimming its older half', () => {
    expect(ERROR_LOG_LIMIT).toBe(1_000_000);
    const entry = 'x'.repeat(99);
    let log = '';
    for (let i = 0; i < 10_000; i++) log = appendErrorLog(log, `${i} ${entry}`);
    expect(log.length).toBeLessThan(1_000_000);
    expect(log.endsWith(`9999 ${entry}\n`)).toBe(true);
    expect(log.startsWith('9')).toBe(false);
    expect(log.split('\n')[0]).toMatch(/^\d+ x+$/);
  });

  it('stays under the limit, keeps the newest entry and never leaves an entry half', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 40 }).map((s) => s.replace(/\n/g, ' ')), { maxLength: 60 }), (entries) => {
        let log = '';
        for (const e of entries) {
          log = appendErrorLog(log, e, 200);
          expect(log.length).toBeLessThan(200);
          expect(log.endsWith(`${e}\n`)).toBe(true);
          for (const line of log.split('\n').slice(0, -1)) expect(entries).toContain(line);
        }
      }),
    );
  });
});
