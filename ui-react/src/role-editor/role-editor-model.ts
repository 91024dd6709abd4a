import { batch, computed, signal } from '@preact/signals-react';
import { isLeft } from 'fp-ts/lib/Either.js';
import { OPERATIONS, parseRoleDocument, type CustomOwner, type EntityRecord, type Level, type Operation } from '@tessera/core/internal';
import type { ApiClient } from '../api/client.js';
import { failureMessage } from '../documents/print-model.js';
import { adminGrid, completeRule, documentOfGrid, gridEntities, gridOfDocument, isAdminRole, levelOf, nextLevel, setLevel, setRow, type RoleGrid } from './role-grid.js';

export const ROLE_ENTITY = 'inu_role';
export const APP_ENTITY = 'inu_app';
export const NEW_ROLE_ID = '0';

export type RoleApi = Pick<ApiClient, 'fetch' | 'update'>;
/** An entity as the grid shows it: its label and the lookups a custom-owner rule may name. */
export type GridEntity = { readonly name: string; readonly label: string; readonly lookups: readonly { name: string; label: string }[] };
export type AppChoice = { readonly id: string; readonly label: string };
export type RoleSaveAnswer =
  | { readonly _tag: 'Saved'; readonly id: string }
  | { readonly _tag: 'NameMissing' }
  | { readonly _tag: 'RuleIncomplete' }
  | { readonly _tag: 'Failed'; readonly message: string };

const EMPTY_GRID: RoleGrid = { levels: {}, customOwners: [] };
const idOf = (v: unknown): string | null =>
  typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string' ? (v as { id: string }).id : null;

/**
 * The role editor (/{appid}/edit/inu_role/{id}, issue 15): the role's name, its app, the
 * permission grid (entities x create/read/update/delete, each none/owner/business unit/
 * organization) and its custom-owner rules, saved as the role's body document. The role named
 * admin has full access whatever its document says (spec 000 section 6): it shows so, read-only.
 */
export const roleEditorModel = ({ api, id, entities }: { api: RoleApi; id: string; entities: readonly GridEntity[] }) => {
  const isNew = id === NEW_ROLE_ID;
  const status = signal<'loading' | 'ready' | 'saving' | 'failed'>(isNew ? 'ready' : 'loading');
  const loadError = signal<string | null>(null);
  const saveError = signal<string | null>(null);
  /** the stored body did not decode: the grid starts empty and says so */
  const bodyProblem = signal<string | null>(null);
  const savedId = signal<string | null>(isNew ? null : id);
  const name = signal('');
  const appId = signal<string | null>(null);
  const apps = signal<AppChoice[]>([]);
  const grid = signal<RoleGrid>(EMPTY_GRID);
  const filter = signal('');
  const loaded = signal({ name: '', appId: null as string | null, body: JSON.stringify(documentOfGrid(EMPTY_GRID)) });

  const admin = computed(() => isAdminRole(name.value.trim()));
  const entityNames = entities.map((e) => e.name);
  /** What the grid draws: the admin role's full access, else the edited grid. */
  const shownGrid = computed(() => (admin.value ? adminGrid(entityNames) : grid.value));
  const body = computed(() => JSON.stringify(documentOfGrid(grid.value)));
  const dirty = computed(() => name.value !== loaded.value.name || appId.value !== loaded.value.appId || body.value !== loaded.value.body);
  const rows = computed(() => {
    const labels = new Map(entities.map((e) => [e.name, e.label]));
    const words = filter.value.trim().toLowerCase();
    return gridEntities(entityNames, shownGrid.value)
      .map((e) => ({ ...e, label: labels.get(e.name) ?? e.name }))
      .filter((e) => words === '' || e.name.toLowerCase().includes(words) || e.label.toLowerCase().includes(words));
  });

  const load = async (): Promise<void> => {
    try {
      const [role, appList] = await Promise.all([
        isNew
          ? Promise.resolve(null)
          : api.fetch({ entity: { name: ROLE_ENTITY, attributes: [{ attribute: 'id' }, { attribute: 'name' }, { attribute: 'appid' }, { attribute: 'body' }], filter: { conditions: [{ attribute: 'id', operator: 'eq', value: id }] } }, page: 1, pageSize: 1 }),
        api.fetch({ entity: { name: APP_ENTITY, attributes: [{ attribute: 'id' }, { attribute: 'name' }, { attribute: 'label' }], orders: [{ attribute: 'name' }] }, page: 1, pageSize: 500 }).catch(() => null),
      ]);
      const choices = (appList?.records ?? []).map((r) => ({ id: String(r.id), label: String(r.label || r.name || r.id) }));
      if (isNew) {
        apps.value = choices;
        return;
      }
      const r = role?.records[0] as EntityRecord | undefined;
      if (!r) {
        status.value = 'failed';
        return;
      }
      const parsed = parseRoleDocument(typeof r.body === 'string' && r.body.trim() !== '' ? r.body : '{}');
      const g = isLeft(parsed) ? EMPTY_GRID : gridOfDocument(parsed.right);
      const app = idOf(r.appid);
      // A role's app the list does not hold (no read right on inu_app) is still offered by its label.
      const label = r.appid && typeof r.appid === 'object' ? String((r.appid as { label?: unknown }).label ?? '') : '';
      batch(() => {
        apps.value = app && !choices.some((c) => c.id === app) ? [...choices, { id: app, label: label || app }] : choices;
        name.value = String(r.name ?? '');
        appId.value = app;
        grid.value = g;
        bodyProblem.value = isLeft(parsed) ? parsed.left.message : null;
        loaded.value = { name: name.value, appId: app, body: isLeft(parsed) ? '' : JSON.stringify(documentOfGrid(g)) };
        status.value = 'ready';
      });
    } catch (e) {
      batch(() => {
        loadError.value = failureMessage(e);
        status.value = 'failed';
      });
    }
  };

  const editable = () => !admin.value && status.value !== 'saving';
  const set = (entity: string, op: Operation, level: Level) => {
    if (editable()) grid.value = setLevel(grid.value, entity, op, level);
  };
  const cycle = (entity: string, op: Operation) => set(entity, op, nextLevel(levelOf(grid.value, entity, op)));
  const setWholeRow = (entity: string, level: Level) => {
    if (editable()) grid.value = setRow(grid.value, entity, level);
  };
  const setColumn = (op: Operation, level: Level) => {
    if (!editable()) return;
    grid.value = rows.value.reduce((g, e) => setLevel(g, e.name, op, level), grid.value);
  };

  const setRules = (customOwners: CustomOwner[]) => {
    if (editable()) grid.value = { ...grid.value, customOwners };
  };
  const addRule = () => setRules([...grid.value.customOwners, { objectName: '', operation: 'read', fieldName: '' }]);
  const updateRule = (i: number, patch: Partial<CustomOwner>) =>
    setRules(grid.value.customOwners.map((o, j) => (j === i ? { ...o, ...patch, ...(patch.objectName !== undefined && patch.objectName !== o.objectName ? { fieldName: '' } : {}) } : o)));
  const removeRule = (i: number) => setRules(grid.value.customOwners.filter((_, j) => j !== i));
  /** The lookups of an entity a rule may name. */
  const lookupsOf = (entity: string) => entities.find((e) => e.name === entity)?.lookups ?? [];

  /** Creates or updates the role with its body document; the admin role's document is kept as stored. */
  const save = async (): Promise<RoleSaveAnswer> => {
    const n = name.value.trim();
    if (n === '') return { _tag: 'NameMissing' };
    if (!admin.value && grid.value.customOwners.some((o) => !completeRule(o))) return { _tag: 'RuleIncomplete' };
    batch(() => {
      status.value = 'saving';
      saveError.value = null;
    });
    const fields: EntityRecord = { name: n, appid: appId.value, ...(admin.value ? {} : { body: body.value }) };
    try {
      const current = savedId.value;
      const newId = current === null ? await api.update('create', ROLE_ENTITY, fields) : await api.update('update', ROLE_ENTITY, { id: current, ...fields });
      batch(() => {
        savedId.value = newId;
        name.value = n;
        bodyProblem.value = null;
        loaded.value = { name: n, appId: appId.value, body: body.value };
        status.value = 'ready';
      });
      return { _tag: 'Saved', id: newId };
    } catch (e) {
      const message = failureMessage(e);
      batch(() => {
        saveError.value = message;
        status.value = 'ready';
      });
      return { _tag: 'Failed', message };
    }
  };

  return {
    isNew,
    entities,
    status,
    loadError,
    saveError,
    bodyProblem,
    savedId,
    name,
    appId,
    apps,
    grid,
    shownGrid,
    filter,
    admin,
    body,
    dirty,
    rows,
    operations: OPERATIONS,
    load,
    set,
    cycle,
    setWholeRow,
    setColumn,
    addRule,
    updateRule,
    removeRule,
    lookupsOf,
    save,
  };
};
export type RoleEditorModel = ReturnType<typeof roleEditorModel>;
