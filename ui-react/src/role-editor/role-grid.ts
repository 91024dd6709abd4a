import {
  ADMIN_ROLE,
  FULL_MASK,
  OPERATIONS,
  packMask,
  unpackMask,
  uniformLevels,
  type CustomOwner,
  type Level,
  type Levels,
  type Operation,
  type RoleDocument,
} from '@tessera/core/internal';

/**
 * The role editor's grid (issue 15, spec 000 section 6): per entity the level of each operation,
 * and the custom-owner rules. It reads and writes the role's body document: a map of entity to
 * mask, or `{ permissions, customOwners }` when the role has rules (docs/permissions.md
 * "Role editor").
 */
export type RoleGrid = {
  /** entity to its four levels; an entity left out has none */
  readonly levels: Readonly<Record<string, Levels>>;
  readonly customOwners: readonly CustomOwner[];
};

export const LEVELS: readonly Level[] = [0, 1, 2, 3];
export const NO_LEVELS: Levels = uniformLevels(0);

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const isNone = (l: Levels): boolean => OPERATIONS.every((op) => l[op] === 0);

/** A document's grid; its masks are read as four 2-bit levels (bits outside them mean nothing). */
export const gridOfDocument = (doc: RoleDocument | null | undefined): RoleGrid => {
  const body = doc ?? {};
  const map: Record<string, number> = 'permissions' in body && typeof body.permissions === 'object' ? (body.permissions as Record<string, number>) : (body as Record<string, number>);
  const owners = 'customOwners' in body && Array.isArray(body.customOwners) ? (body.customOwners as CustomOwner[]) : [];
  const levels: Record<string, Levels> = {};
  for (const [entity, mask] of Object.entries(map)) {
    const l = unpackMask(Number.isFinite(mask) ? mask : 0);
    if (!isNone(l)) levels[entity] = l;
  }
  return { levels, customOwners: owners.map((o) => ({ objectName: o.objectName, operation: o.operation, fieldName: o.fieldName })) };
};

/**
 * The document of a grid: entities with some level, by name, as masks; the plain map when
 * there are no custom-owner rules (the shorter form the spec allows), else
 * `{ permissions, customOwners }`.
 */
export const documentOfGrid = (grid: RoleGrid): RoleDocument => {
  const permissions = Object.fromEntries(
    Object.entries(grid.levels)
      .filter(([, l]) => !isNone(l))
      .sort(([a], [b]) => byCodePoint(a, b))
      .map(([e, l]) => [e, packMask(l)]),
  );
  return grid.customOwners.length === 0 ? permissions : { permissions, customOwners: grid.customOwners.map((o) => ({ ...o })) };
};

export const levelOf = (grid: RoleGrid, entity: string, op: Operation): Level => grid.levels[entity]?.[op] ?? 0;

/** The grid with one cell set. */
export const setLevel = (grid: RoleGrid, entity: string, op: Operation, level: Level): RoleGrid => ({
  ...grid,
  levels: { ...grid.levels, [entity]: { ...(grid.levels[entity] ?? NO_LEVELS), [op]: level } },
});

/** The grid with one entity's four operations at one level. */
export const setRow = (grid: RoleGrid, entity: string, level: Level): RoleGrid => ({
  ...grid,
  levels: { ...grid.levels, [entity]: uniformLevels(level) },
});

/** The next level (none, owner, business unit, organization, then none again). */
export const nextLevel = (l: Level): Level => ((l + 1) % 4) as Level;

/** What the admin role shows: organization level everywhere (spec 000 section 6: the full mask on every known entity). */
export const adminGrid = (entities: readonly string[]): RoleGrid => ({
  levels: Object.fromEntries(entities.map((e) => [e, unpackMask(FULL_MASK)])),
  customOwners: [],
});

export const isAdminRole = (name: string): boolean => name === ADMIN_ROLE;

/** The entities of the grid: the metadata's, and any the document names that the metadata lacks (kept, marked). */
export const gridEntities = (known: readonly string[], grid: RoleGrid): { name: string; known: boolean }[] => {
  const names = new Set(known);
  const extra = Object.keys(grid.levels).filter((e) => !names.has(e));
  return [...[...names].map((name) => ({ name, known: true })), ...extra.sort(byCodePoint).map((name) => ({ name, known: false }))];
};

/** A custom-owner rule is complete when it names an entity, an operation and a field. */
export const completeRule = (o: CustomOwner): boolean => o.objectName !== '' && o.fieldName !== '' && (OPERATIONS as readonly string[]).includes(o.operation);
