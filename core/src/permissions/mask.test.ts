import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FULL_MASK, levelIn, maxMask, packMask, uniformLevels, unpackMask } from './mask.js';
import type { Level, Levels } from './types.js';

const level = fc.constantFrom<Level>(0, 1, 2, 3);
const levelsArb = fc.record<Levels>({ create: level, read: level, update: level, delete: level });

describe('permission masks (spec 000 section 6)', () => {
  it('the full mask is 13107 (0x3333): level 3 for all four operations', () => {
    expect(FULL_MASK).toBe(13107);
    expect(FULL_MASK).toBe(0x3333);
    expect(packMask(uniformLevels(3))).toBe(13107);
    expect(unpackMask(13107)).toEqual({ create: 3, read: 3, update: 3, delete: 3 });
  });

  it('create sits at the lowest bits, then read, update, delete, each level at the low end of a 4-bit slot', () => {
    const table: [Levels, number][] = [
      [{ create: 1, read: 0, update: 0, delete: 0 }, 0x0001],
      [{ create: 3, read: 0, update: 0, delete: 0 }, 0x0003],
      [{ create: 0, read: 1, update: 0, delete: 0 }, 0x0010],
      [{ create: 0, read: 2, update: 0, delete: 0 }, 0x0020],
      [{ create: 0, read: 0, update: 1, delete: 0 }, 0x0100],
      [{ create: 0, read: 0, update: 0, delete: 3 }, 0x3000],
      [{ create: 1, read: 2, update: 3, delete: 1 }, 0x1321],
      [{ create: 0, read: 0, update: 0, delete: 0 }, 0],
    ];
    for (const [levels, mask] of table) {
      expect(packMask(levels)).toBe(mask);
      expect(unpackMask(mask)).toEqual(levels);
    }
  });

  it('levels are 0 none, 1 owner, 2 business unit, 3 organization: every operation reads back its 2-bit level', () => {
    expect(levelIn(0x2130, 'create')).toBe(0);
    expect(levelIn(0x2130, 'read')).toBe(3);
    expect(levelIn(0x2130, 'update')).toBe(1);
    expect(levelIn(0x2130, 'delete')).toBe(2);
  });

  it('pack then unpack is the identity on levels', () => {
    fc.assert(fc.property(levelsArb, (l) => {
        expect(unpackMask(packMask(l))).toEqual(l);
      }));
  });

  it('unpack then pack is the identity on every well-formed mask (only bits 0-1, 4-5, 8-9, 12-13)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), (m) => {
        const wellFormed = m & 0x3333;
        expect(packMask(unpackMask(wellFormed))).toBe(wellFormed);
        expect(packMask(unpackMask(m))).toBe(wellFormed);
      }),
    );
  });

  it('a packed mask never exceeds the full mask 13107', () => {
    fc.assert(fc.property(levelsArb, (l) => {
        expect(packMask(l)).toBeLessThanOrEqual(FULL_MASK);
      }));
  });

  it('maxMask keeps the highest level per operation', () => {
    fc.assert(
      fc.property(levelsArb, levelsArb, (a, b) => {
        const m = unpackMask(maxMask(packMask(a), packMask(b)));
        for (const op of ['create', 'read', 'update', 'delete'] as const) expect(m[op]).toBe(Math.max(a[op], b[op]));
      }),
    );
  });
});
