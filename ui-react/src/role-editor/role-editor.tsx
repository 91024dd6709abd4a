import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { OPERATIONS, type Entity, type Level, type MessageKey, type Operation } from '@tessera/core/internal';
import { useApi } from '../api/context.js';
import { NavigationGuard } from '../form/navigation-guard.js';
import { useT } from '../i18n.js';
import { session } from '../state/session.js';
import { toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { LEVELS, levelOf } from './role-grid.js';
import { NEW_ROLE_ID, ROLE_ENTITY, roleEditorModel, type GridEntity, type RoleEditorModel } from './role-editor-model.js';

export const LEVEL_TEXT: Record<Level, MessageKey> = { 0: 'RoleLevelNone', 1: 'RoleLevelOwner', 2: 'RoleLevelTeam', 3: 'RoleLevelOrganization' };
export const OPERATION_TEXT: Record<Operation, MessageKey> = { create: 'RoleOpCreate', read: 'RoleOpRead', update: 'RoleOpUpdate', delete: 'RoleOpDelete' };

/** The grid's entities from the session: labels in the user's language, lookups for custom-owner rules. */
const gridEntitiesOf = (entities: Readonly<Record<string, Entity>>): GridEntity[] =>
  Object.values(entities)
    .map((e) => ({
      name: e.logicalName,
      label: e.displayNamePlural || e.displayName || e.logicalName,
      lookups: e.properties.filter((p) => p.type === 'Lookup').map((p) => ({ name: p.logicalName, label: p.displayName || p.logicalName })),
    }))
    .sort((a, b) => a.label.localeCompare(b.label));

/** /{appid}/edit/inu_role/{id}: the role editor (issue 15). */
export const RoleEditorRoute = () => {
  const { appId = '!', id = NEW_ROLE_ID } = useParams();
  return <RoleEditor key={id} id={id} appParam={appId} />;
};

export const RoleEditor = ({ id, appParam }: { id: string; appParam: string }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const ids = useId();
  const proceeding = useRef(false);
  // The entities when the editor opened: a metadata reload meanwhile does not drop the edits.
  const model = useMemo(() => roleEditorModel({ api, id, entities: gridEntitiesOf(session.peek()?.entities ?? {}) }), [api, id]);
  useEffect(() => void model.load(), [model]);

  const save = async (): Promise<boolean> => {
    const answer = await model.save();
    switch (answer._tag) {
      case 'Saved':
        toast(t('MsgRecordSaved'));
        if (id === NEW_ROLE_ID) {
          proceeding.current = true;
          navigate(`/${appParam}/edit/${ROLE_ENTITY}/${answer.id}`, { replace: true });
        }
        return true;
      case 'NameMissing':
        model.saveError.value = `${t('MsgRequiredFieldEmpty')}\n- ${t('LblName')}`;
        return false;
      case 'RuleIncomplete':
        model.saveError.value = t('RoleRuleIncomplete');
        return false;
      case 'Failed':
        return false;
    }
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
      e.preventDefault();
      if (model.dirty.value && model.status.value === 'ready') void save();
    }
  };

  const status = model.status.value;
  if (status === 'loading')
    return (
      <p className="muted screen" aria-busy="true">
        {t('MsgLoading')}
      </p>
    );
  if (status === 'failed')
    return (
      <p className="error-text screen" role="alert">
        {model.loadError.value ?? t('MsgRecordNotFound')}
      </p>
    );
  const saving = status === 'saving';
  const admin = model.admin.value;

  return (
    <div className="screen role-editor" onKeyDown={onKeyDown}>
      {model.dirty.value && <NavigationGuard onSave={save} proceeding={proceeding} />}
      <div className="screen-head">
        <div className="title-row">
          <Link className="icon-btn" to={`/${appParam}/list/${ROLE_ENTITY}`} aria-label={t('CmdClose')}>
            <Icon name="close" />
          </Link>
          <h1 className="screen-title">
            {t('RoleTitle')}
            {model.name.value ? `: ${model.name.value}` : ''}
          </h1>
        </div>
        <div className="command-bar" role="toolbar" aria-label={t('RoleTitle')}>
          {/* The role as a record: its users (the other side of systemuserroles), who made and changed it. */}
          {id !== NEW_ROLE_ID && (
            <Link className="btn" to={`/${appParam}/edit/${ROLE_ENTITY}/${id}/details`}>
              <Icon name="contacts" /> {t('RoleDetails')}
            </Link>
          )}
          <button type="button" className="btn btn-primary" disabled={!model.dirty.value || saving} aria-busy={saving} onClick={() => void save()}>
            <Icon name={saving ? 'hourglass' : 'save'} /> {t('CmdSave')}
          </button>
        </div>
      </div>
      {model.saveError.value && (
        <p className="error-text" role="alert">
          {model.saveError.value}
        </p>
      )}
      {model.bodyProblem.value && (
        <p className="role-note role-warning" role="status">
          {t('RoleBodyProblem', { error: model.bodyProblem.value })}
        </p>
      )}
      <div className="role-head">
        <div className="field">
          <label htmlFor={`${ids}-name`}>{t('LblName')}</label>
          <input id={`${ids}-name`} value={model.name.value} maxLength={200} required readOnly={admin && !model.isNew} onChange={(e) => (model.name.value = e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-app`}>{t('RoleApp')}</label>
          <select id={`${ids}-app`} value={model.appId.value ?? ''} onChange={(e) => (model.appId.value = e.target.value === '' ? null : e.target.value)}>
            <option value="">{t('LblNone')}</option>
            {model.apps.value.map((a) => (
              <option key={a.id} value={a.id}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {admin && (
        <p className="role-note" role="status">
          {t('RoleAdminNote')}
        </p>
      )}
      <PermissionGrid model={model} />
      {!admin && <CustomOwners model={model} />}
    </div>
  );
};

/**
 * The permission grid: a row per entity, a cell per operation. One cell is in the tab order
 * (roving tabindex); arrows move, 0 to 3 set the level, Space or Enter steps to the next, and
 * with Shift the digit sets the whole row.
 */
const PermissionGrid = ({ model }: { model: RoleEditorModel }) => {
  useSignals();
  const t = useT();
  const ids = useId();
  const gridRef = useRef<HTMLTableElement>(null);
  const [active, setActive] = useState({ row: 0, col: 0 });
  const rows = model.rows.value;
  const grid = model.shownGrid.value;
  const readOnly = model.admin.value;
  const focusCell = (row: number, col: number) => {
    const r = Math.max(0, Math.min(rows.length - 1, row));
    const c = Math.max(0, Math.min(OPERATIONS.length - 1, col));
    setActive({ row: r, col: c });
    gridRef.current?.querySelector<HTMLElement>(`[data-cell="${r}-${c}"]`)?.focus();
  };
  const onKey = (e: React.KeyboardEvent, row: number, col: number, entity: string, op: Operation) => {
    const digit = /^Digit([0-3])$/.exec(e.code)?.[1] ?? (/^[0-3]$/.test(e.key) ? e.key : undefined);
    const move: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], PageUp: [-10, 0], PageDown: [10, 0] };
    if (move[e.key]) {
      e.preventDefault();
      focusCell(row + move[e.key][0], col + move[e.key][1]);
    } else if (e.key === 'Home') {
      e.preventDefault();
      focusCell(e.ctrlKey ? 0 : row, 0);
    } else if (e.key === 'End') {
      e.preventDefault();
      focusCell(e.ctrlKey ? rows.length - 1 : row, OPERATIONS.length - 1);
    } else if (digit !== undefined && !readOnly) {
      e.preventDefault();
      const level = Number(digit) as Level;
      if (e.shiftKey) model.setWholeRow(entity, level);
      else model.set(entity, op, level);
    } else if ((e.key === ' ' || e.key === 'Enter') && !readOnly) {
      e.preventDefault();
      model.cycle(entity, op);
    }
  };
  const { row: activeRow, col: activeCol } = active;
  return (
    <section className="role-grid-section" aria-labelledby={`${ids}-title`}>
      <div className="role-grid-head">
        <h2 id={`${ids}-title`} className="panel-title">
          {t('RolePermissions')}
        </h2>
        <input type="search" className="role-filter" placeholder={t('RoleFilter')} aria-label={t('RoleFilter')} value={model.filter.value} onChange={(e) => (model.filter.value = e.target.value)} />
      </div>
      <p className="muted role-help" id={`${ids}-help`}>
        {readOnly ? null : t('RoleGridHelp')}
      </p>
      <div className="role-grid-wrap">
        <table className="role-grid" role="grid" aria-labelledby={`${ids}-title`} aria-describedby={`${ids}-help`} aria-readonly={readOnly || undefined} ref={gridRef}>
          <thead>
            <tr>
              <th scope="col">{t('RoleEntity')}</th>
              {OPERATIONS.map((op) => (
                <th scope="col" key={op}>
                  {t(OPERATION_TEXT[op])}
                </th>
              ))}
              {!readOnly && (
                <th scope="col" className="role-row-col">
                  {t('RoleSetRow')}
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((e, r) => (
              <tr key={e.name}>
                <th scope="row" className="role-entity">
                  <span>{e.label}</span> <code className="muted">{e.name}</code>
                  {!e.known && <span className="loc-tag loc-tag-missing">{t('RoleUnknownEntity')}</span>}
                </th>
                {OPERATIONS.map((op, c) => {
                  const level = levelOf(grid, e.name, op);
                  const label = t(LEVEL_TEXT[level]);
                  const isActive = r === Math.min(activeRow, rows.length - 1) && c === activeCol;
                  return (
                    <td key={op} className="role-cell-td" role="presentation">
                      <button
                        type="button"
                        role="gridcell"
                        data-cell={`${r}-${c}`}
                        className={`role-cell level-${level}`}
                        tabIndex={isActive ? 0 : -1}
                        aria-readonly={readOnly || undefined}
                        aria-label={t('RoleCell', { entity: e.label, operation: t(OPERATION_TEXT[op]), level: label })}
                        title={label}
                        onFocus={() => (r !== activeRow || c !== activeCol) && setActive({ row: r, col: c })}
                        onClick={() => !readOnly && model.cycle(e.name, op)}
                        onKeyDown={(ev) => onKey(ev, r, c, e.name, op)}
                      >
                        <span className="role-dot" aria-hidden="true" />
                        <span className="role-level-text">{label}</span>
                      </button>
                    </td>
                  );
                })}
                {!readOnly && (
                  <td className="role-row-col">
                    <select
                      aria-label={t('RoleSetRowOf', { entity: e.label })}
                      value=""
                      onChange={(ev) => ev.target.value !== '' && model.setWholeRow(e.name, Number(ev.target.value) as Level)}
                    >
                      <option value="">…</option>
                      {LEVELS.map((l) => (
                        <option key={l} value={l}>
                          {t(LEVEL_TEXT[l])}
                        </option>
                      ))}
                    </select>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
};

const CustomOwners = ({ model }: { model: RoleEditorModel }) => {
  useSignals();
  const t = useT();
  const ids = useId();
  const rules = model.grid.value.customOwners;
  const all = model.entities;
  return (
    <section className="role-owners" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className="panel-title">
        {t('RoleCustomOwners')}
      </h2>
      <p className="muted">{t('RoleCustomOwnersHelp')}</p>
      {rules.length === 0 ? (
        <p className="muted">{t('RoleNoRules')}</p>
      ) : (
        <ol className="role-rules">
          {rules.map((o, i) => {
            const lookups = model.lookupsOf(o.objectName);
            const fieldKnown = o.fieldName === '' || lookups.some((l) => l.name === o.fieldName);
            return (
              <li key={i} className="role-rule">
                <div className="field compact">
                  <label htmlFor={`${ids}-${i}-o`}>{t('RoleRuleEntity')}</label>
                  <select id={`${ids}-${i}-o`} value={o.objectName} onChange={(e) => model.updateRule(i, { objectName: e.target.value })}>
                    <option value="">…</option>
                    {!all.some((e) => e.name === o.objectName) && o.objectName !== '' && <option value={o.objectName}>{o.objectName}</option>}
                    {all.map((e) => (
                      <option key={e.name} value={e.name}>
                        {e.label} ({e.name})
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field compact">
                  <label htmlFor={`${ids}-${i}-op`}>{t('RoleRuleOperation')}</label>
                  <select id={`${ids}-${i}-op`} value={o.operation} onChange={(e) => model.updateRule(i, { operation: e.target.value as Operation })}>
                    {OPERATIONS.map((op) => (
                      <option key={op} value={op}>
                        {t(OPERATION_TEXT[op])}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field compact">
                  <label htmlFor={`${ids}-${i}-f`}>{t('RoleRuleField')}</label>
                  <select id={`${ids}-${i}-f`} value={o.fieldName} onChange={(e) => model.updateRule(i, { fieldName: e.target.value })}>
                    <option value="">…</option>
                    {!fieldKnown && <option value={o.fieldName}>{o.fieldName}</option>}
                    {lookups.map((l) => (
                      <option key={l.name} value={l.name}>
                        {l.label} ({l.name})
                      </option>
                    ))}
                  </select>
                </div>
                <button type="button" className="icon-btn role-rule-remove" aria-label={t('RoleRemoveRule', { n: i + 1 })} title={t('RoleRemoveRule', { n: i + 1 })} onClick={() => model.removeRule(i)}>
                  <Icon name="trash" />
                </button>
              </li>
            );
          })}
        </ol>
      )}
      <button type="button" className="btn btn-plain" onClick={model.addRule}>
        <Icon name="plus" /> {t('RoleAddRule')}
      </button>
    </section>
  );
};
