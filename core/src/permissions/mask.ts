import { OPERATIONS, type Level, type Levels, type Operation } from './types.js';

/**
 * Mask layout (spec 000 section 6): each operation owns a 4-bit slot, create lowest, and its
 * 2-bit level sits at the low end of that slot: bits 0-1 create, 4-5 read, 8-9 update,
 * 12-13 delete. So level 3 everywhere is 0x3333 = 13107, the specification's full mask.
 */
/** Width of each operation's slot in a mask. */
export const SLOT_BITS = 4;
/** Spec 000 sections 6 and 9: the full permission mask. */
export const FULL_MASK = 13107;
/** Every level at none. */
export const EMPTY_MASK = 0;

/** The operation index of spec 000 section 6: create 0, read 1, update 2, delete 3. */
export const operationIndex = (operation: Operation): number => OPERATIONS.indexOf(operation);

const shiftOf = (operation: Operation): number => operationIndex(operation) * SLOT_BITS;

/** Packs four levels into a permission mask (create in bits 0-1, read 4-5, update 8-9, delete 12-13). */
export const packMask = (levels: Levels): number =>
  OPERATIONS.reduce((mask, op) => mask | ((levels[op] & 3) << shiftOf(op)), 0);

/** The level of one operation in a mask; bits outside the four 2-bit fields are ignored. */
export const levelIn = (mask: number, operation: Operation): Level => ((mask >> shiftOf(operation)) & 3) as Level;

/** Unpacks a permission mask into its four levels (the inverse of packMask). */
export const unpackMask = (mask: number): Levels => ({
  create: levelIn(mask, 'create'),
  read: levelIn(mask, 'read'),
  update: levelIn(mask, 'update'),
  delete: levelIn(mask, 'delete'),
});

/** The same level for all four operations. */
export const uniformLevels = (level: Level): Levels => ({ create: level, read: level, update: level, delete: level });

/** Per operation the higher level of two masks (the role merge of spec 000 section 6). */
export const maxMask = (a: number, b: number): number => {
  const x = unpackMask(a);
  const y = unpackMask(b);
  return packMask({
    create: Math.max(x.create, y.create) as Level,
    read: Math.max(x.read, y.read) as Level,
    update: Math.max(x.update, y.update) as Level,
    delete: Math.max(x.delete, y.delete) as Level,
  });
};
