import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useApi } from '../api/context.js';
import { formatValue } from '../format.js';
import { useT, type T } from '../i18n.js';
import { caller, refreshSession, session } from '../state/session.js';
import { toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { mayAccessSome, VIEW_KINDS, type Entity, type ViewBodyCheck, type ViewKind } from '../core.js';
import { inuViewEditorModel, NEW_VIEW_ID, PREVIEW_DELAY_MS, VIEW_ENTITY, type InuViewEditorModel } from './inu-view-editor-model.js';

/** /{appid}/edit/inu_view/{id}: the view-definition editor (spec 000 section 2, issue 15). */
export const InuViewEditorRoute = () => {
  const { appId = '!', id = NEW_VIEW_ID } = useParams();
  return <InuViewEditor key={id} id={id} appParam={appId} />;
};

/** The line under the body: valid, or the problem with its path (and line for JSON). */
export const checkText = (t: T, c: ViewBodyCheck): string => {
  switch (c._tag) {
    case 'Valid':
      return t('VeValid');
    case 'Json':
      return c.line !== undefined ? t('SqJsonAt', { line: c.line, column: c.column ?? 1, error: c.message }) : t('SqJsonProblem', { error: c.message });
    case 'Invalid':
      return c.path ? t('SqInvalidAt', { path: c.path, error: c.message }) : c.message;
  }
};

const RowsPreview = ({ entity, columns, rows, count }: { entity: Entity | undefined; columns: readonly string[]; rows: readonly Record<string, unknown>[]; count: number | null }) => {
  const t = useT();
  const prop = (n: string) => entity?.properties.find((p) => p.logicalName === n);
  if (rows.length === 0) return <p className="muted">{t('VeNoRows')}</p>;
  return (
    <>
      <p className="muted small">{t('VePreviewRows', { n: rows.length, count: count ?? rows.length })}</p>
      <div className="view-preview-scroll">
        <table className="view-preview-table">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {prop(c)?.displayName ?? c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={String(r.id ?? i)}>
                {columns.map((c) => (
                  <td key={c}>{formatValue(prop(c), r[c] as never, r as never)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
};

const PreviewPane = ({ model }: { model: InuViewEditorModel }) => {
  useSignals();
  const t = useT();
  const ids = useId();
  const p = model.preview.value;
  const check = model.check.value;
  const entity = check._tag === 'Valid' && model.kind.value === 'view' ? session.value?.entities[(check.body as { query: { name: string } }).query.name] : undefined;
  return (
    <section className="doc-preview" aria-labelledby={`${ids}-title`}>
      <div className="doc-preview-head">
        <h2 id={`${ids}-title`} className="panel-title">
          {t('DocEditorPreview')}
        </h2>
        <button type="button" className="btn btn-plain icon-only" aria-label={t('DocEditorRefresh')} title={t('DocEditorRefresh')} onClick={() => void model.refreshPreview()}>
          <Icon name="refresh" />
        </button>
      </div>
      <div className="doc-preview-body view-preview" aria-live="polite" aria-busy={p._tag === 'Loading'} data-preview={p._tag}>
        {check._tag !== 'Valid' ? (
          <p className="muted">{t('VePreviewNeedsValid')}</p>
        ) : p._tag === 'Loading' || p._tag === 'None' ? (
          <p className="muted">{t('MsgLoading')}</p>
        ) : p._tag === 'Failed' ? (
          <p className="error-text" role="alert">
            {p.message}
          </p>
        ) : p._tag === 'Rows' ? (
          <RowsPreview entity={entity} columns={p.columns} rows={p.rows} count={p.count} />
        ) : p.lines.length === 0 ? (
          <p className="muted">{t('VeEmptyBody')}</p>
        ) : (
          <ul className="view-summary">
            {p.lines.map((l, i) => (
              <li key={i} style={{ paddingInlineStart: `${l.depth * 16}px` }}>
                {l.text}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
};

export const InuViewEditor = ({ id, appParam }: { id: string; appParam: string }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const ids = useId();
  const user = caller.value;
  const model = useMemo(() => inuViewEditorModel({ api, id, entities: () => session.value?.entities ?? {}, userId: user?.userId ?? '' }), [api, id]);
  useEffect(() => {
    void model.load();
    return model.dispose;
  }, [model]);
  const body = model.body.value;
  const kind = model.kind.value;
  const ready = model.status.value === 'ready' || model.status.value === 'saving';
  useEffect(() => {
    if (!ready) return;
    const timer = setTimeout(() => void model.refreshPreview(), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [model, body, kind, ready]);

  const entities = useMemo(() => Object.values(session.value?.entities ?? {}).sort((a, b) => a.displayName.localeCompare(b.displayName)), [session.value]);

  if (model.status.value === 'loading') return <p className="muted screen">{t('MsgLoading')}</p>;
  if (model.status.value === 'failed')
    return (
      <p className="error-text screen" role="alert">
        {model.loadError.value ?? t('MsgRecordNotFound')}
      </p>
    );

  const mayWrite = user !== null && mayAccessSome(user, model.savedId.value ? 'update' : 'create', VIEW_ENTITY);
  const check = model.check.value;
  const ok = check._tag === 'Valid';
  const saving = model.status.value === 'saving';
  const save = async () => {
    const saved = await model.save();
    if (!saved) return;
    toast(t('MsgRecordSaved'));
    // Other clients reload through the metadata-changed event; this one now.
    await refreshSession(api).catch(() => undefined);
    if (id === NEW_VIEW_ID) navigate(`/${appParam}/edit/${VIEW_ENTITY}/${saved}`, { replace: true });
  };
  const setupQuery = async () => {
    const request = model.viewQuery();
    if (!request || !user) return;
    const { openSetupQueryDialog } = await import('../setup-query/setup-query-dialog.js');
    await openSetupQueryDialog({
      initial: request,
      entities: session.value?.entities ?? {},
      entity: request.entity.name,
      placeholders: { userid: user.userId },
      onSave: (r) => {
        model.applyViewQuery(r);
        return null;
      },
    });
  };

  return (
    <div className="screen template-editor view-editor">
      <div className="screen-head">
        <div className="title-row">
          <Link className="icon-btn" to={`/${appParam}/list/${VIEW_ENTITY}`} aria-label={t('CmdClose')}>
            <Icon name="close" />
          </Link>
          <h1 className="screen-title">
            {t('VeTitle')}
            {model.name.value ? `: ${model.name.value}` : ''}
          </h1>
        </div>
        <div className="command-bar" role="toolbar" aria-label={t('VeTitle')}>
          {mayWrite && (
            <button type="button" className="btn btn-primary" disabled={!model.dirty.value || saving || !ok} aria-busy={saving} onClick={() => void save()}>
              <Icon name={saving ? 'hourglass' : 'save'} /> {t('CmdSave')}
            </button>
          )}
          {kind === 'view' && (
            <button type="button" className="btn btn-plain" disabled={!ok} onClick={() => void setupQuery()}>
              <Icon name="filter" /> {t('SqTitle')}
            </button>
          )}
        </div>
      </div>
      {model.saveError.value && (
        <p className="error-text" role="alert">
          {model.saveError.value === 'name' ? t('VeNameRequired') : model.saveError.value}
        </p>
      )}
      <div className="template-editor-columns">
        <section className="template-editor-form">
          <div className="view-editor-row">
            <div className="field">
              <label htmlFor={`${ids}-name`}>{t('DocEditorName')}</label>
              <input id={`${ids}-name`} value={model.name.value} maxLength={200} required aria-invalid={model.name.value.trim() === ''} onChange={(e) => (model.name.value = e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-label`}>{t('VeLabel')}</label>
              <input id={`${ids}-label`} value={model.label.value} maxLength={200} onChange={(e) => (model.label.value = e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-kind`}>{t('VeKind')}</label>
              <select id={`${ids}-kind`} value={kind} onChange={(e) => model.setKind(e.target.value as ViewKind)}>
                {VIEW_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${ids}-entity`}>{t('DocEditorEntity')}</label>
              <select id={`${ids}-entity`} value={model.objectname.value} onChange={(e) => model.setEntity(e.target.value)}>
                <option value="">—</option>
                {entities.map((e) => (
                  <option key={e.logicalName} value={e.logicalName}>
                    {e.displayName}
                  </option>
                ))}
                {model.objectname.value && !entities.some((e) => e.logicalName === model.objectname.value) && <option value={model.objectname.value}>{model.objectname.value}</option>}
              </select>
            </div>
          </div>
          <label className="export-check">
            <input type="checkbox" checked={model.isprivate.value} onChange={(e) => (model.isprivate.value = e.target.checked)} />
            {t('VePrivate')}
          </label>
          <div className="field">
            <label htmlFor={`${ids}-body`}>{t('VeBody')}</label>
            <textarea
              id={`${ids}-body`}
              className="template-body"
              spellCheck={false}
              value={body}
              onChange={(e) => (model.body.value = e.target.value)}
              onKeyDown={(e) => {
                if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
                  e.preventDefault();
                  if (mayWrite && ok && model.dirty.value) void save();
                }
              }}
              aria-invalid={!ok}
              aria-describedby={`${ids}-check`}
            />
          </div>
          <p id={`${ids}-check`} className={ok ? 'doc-valid view-editor-check' : 'error-text view-editor-check'} role={ok ? 'status' : 'alert'} data-status={check._tag}>
            {ok && <Icon name="check" />} {checkText(t, check)}
          </p>
          <p className="muted doc-help">{t('VeHelp')}</p>
        </section>
        <PreviewPane model={model} />
      </div>
    </div>
  );
};
