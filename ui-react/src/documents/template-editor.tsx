import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useMemo, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { canAccess, REPORT_TEMPLATE_ENTITY, type Guid } from '@tessera/core/internal';
import { useApi } from '../api/context.js';
import { language, useT } from '../i18n.js';
import { caller, entityOf, session } from '../state/session.js';
import { toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { forgetTemplates } from './document-commands.js';
import { DocumentPreview } from './document-preview.js';
import { downloadBlob, failureMessage, readerTimeZone } from './print-model.js';
import { NEW_TEMPLATE_ID, PREVIEW_DELAY_MS, templateEditorModel, type TemplateEditorModel } from './template-editor-model.js';

/** /{appid}/edit/report_template/{id}: the report template editor with a live preview (issue 20). */
export const TemplateEditorRoute = () => {
  const { appId = '!', id = NEW_TEMPLATE_ID } = useParams();
  return <TemplateEditor key={id} id={id} appParam={appId} />;
};

const FieldPalette = ({ entity, onInsert }: { entity: string; onInsert: (text: string) => void }) => {
  const t = useT();
  const e = entityOf(entity);
  if (!e) return null;
  const fields = [...e.properties].sort((a, b) => a.displayName.localeCompare(b.displayName));
  return (
    <details className="doc-fields">
      <summary>{t('DocEditorFields')}</summary>
      <div className="doc-field-list">
        {fields.map((p) => (
          <button key={p.logicalName} type="button" className="chip" title={t('DocEditorInsert', { field: p.logicalName })} onClick={() => onInsert(`{{${p.logicalName}}}`)}>
            {p.displayName} <code>{p.logicalName}</code>
          </button>
        ))}
      </div>
    </details>
  );
};

const PreviewPane = ({ model }: { model: TemplateEditorModel }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const ids = useId();
  const p = model.preview.value;
  const list = model.records.value;
  const downloadPdf = async () => {
    if (!model.previewId.value) return;
    try {
      const file = await api.document({ entity: model.objectname.value, id: model.previewId.value as Guid, body: model.body.value, format: model.format.value === 2 ? 'docx' : 'pdf', language: language.value, timeZone: readerTimeZone() });
      downloadBlob(file.blob, file.fileName);
    } catch (e) {
      toast(t('DocFailed', { error: failureMessage(e) }));
    }
  };
  return (
    <section className="doc-preview" aria-labelledby={`${ids}-title`}>
      <div className="doc-preview-head">
        <h2 id={`${ids}-title`} className="panel-title">
          {t('DocEditorPreview')}
        </h2>
        {model.objectname.value && list && list.length > 0 && (
          <div className="doc-preview-controls">
            <label htmlFor={`${ids}-record`}>{t('DocEditorPreviewRecord')}</label>
            <select id={`${ids}-record`} value={model.previewId.value ?? ''} onChange={(e) => (model.previewId.value = e.target.value)}>
              {list.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.label}
                </option>
              ))}
            </select>
            <button type="button" className="btn btn-plain icon-only" aria-label={t('DocEditorRefresh')} title={t('DocEditorRefresh')} onClick={() => void model.refreshPreview()}>
              <Icon name="refresh" />
            </button>
            <button type="button" className="btn btn-plain" onClick={() => void downloadPdf()} disabled={model.problem.value !== null}>
              <Icon name="download" /> {t(model.format.value === 2 ? 'DocFormatWord' : 'DocFormatPdf')}
            </button>
          </div>
        )}
      </div>
      <div className="doc-preview-body" aria-live="polite" aria-busy={p._tag === 'Loading'}>
        {!model.objectname.value ? (
          <p className="muted">{t('DocEditorChooseEntity')}</p>
        ) : list === null ? (
          <p className="muted">{t('MsgLoading')}</p>
        ) : model.recordsError.value ? (
          <p className="error-text" role="alert">
            {model.recordsError.value}
          </p>
        ) : list.length === 0 ? (
          <p className="muted">{t('DocEditorNoRecords')}</p>
        ) : p._tag === 'None' ? (
          <p className="muted">{t('DocEditorChooseRecord')}</p>
        ) : p._tag === 'Failed' ? (
          <p className="error-text" role="alert">
            {p.message}
          </p>
        ) : p._tag === 'Loading' ? (
          <p className="muted">{t('MsgLoading')}</p>
        ) : (
          <DocumentPreview model={p.model} />
        )}
      </div>
    </section>
  );
};

export const TemplateEditor = ({ id, appParam }: { id: string; appParam: string }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const ids = useId();
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const model = useMemo(() => templateEditorModel({ api, id, language: language.value }), [api, id]);
  useEffect(() => {
    void model.load();
    return model.dispose;
  }, [model]);
  const entity = model.objectname.value;
  const body = model.body.value;
  const previewId = model.previewId.value;
  const ready = model.status.value === 'ready' || model.status.value === 'saving';
  useEffect(() => {
    if (ready) void model.loadRecords();
  }, [model, entity, ready]);
  // The live preview: asked again a moment after the body or the record changes.
  useEffect(() => {
    if (!ready) return;
    const timer = setTimeout(() => void model.refreshPreview(), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [model, body, previewId, entity, ready]);

  const s = session.value;
  const user = caller.value;
  const entities = useMemo(
    () => Object.values(s?.entities ?? {}).filter((e) => user !== null && canAccess(user, 'read', e.logicalName, {})).sort((a, b) => a.displayName.localeCompare(b.displayName)),
    [s, user],
  );

  if (model.status.value === 'loading') return <p className="muted screen">{t('MsgLoading')}</p>;
  if (model.status.value === 'failed')
    return (
      <p className="error-text screen" role="alert">
        {model.loadError.value ?? t('MsgRecordNotFound')}
      </p>
    );

  const insert = (text: string) => {
    const area = bodyRef.current;
    const at = area ? area.selectionStart : body.length;
    const end = area ? area.selectionEnd : body.length;
    model.body.value = body.slice(0, at) + text + body.slice(end);
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(at + text.length, at + text.length);
    });
  };
  const save = async () => {
    const saved = await model.save();
    if (!saved) return;
    forgetTemplates(model.objectname.value);
    toast(t('MsgRecordSaved'));
    if (id === NEW_TEMPLATE_ID) navigate(`/${appParam}/edit/${REPORT_TEMPLATE_ENTITY}/${saved}`, { replace: true });
  };
  const saving = model.status.value === 'saving';
  const problem = model.problem.value;

  return (
    <div className="screen template-editor">
      <div className="screen-head">
        <div className="title-row">
          <Link className="icon-btn" to={`/${appParam}/list/${REPORT_TEMPLATE_ENTITY}`} aria-label={t('CmdClose')}>
            <Icon name="close" />
          </Link>
          <h1 className="screen-title">
            {t('DocEditorTitle')}
            {model.name.value ? `: ${model.name.value}` : ''}
          </h1>
        </div>
        <div className="command-bar" role="toolbar" aria-label={t('DocEditorTitle')}>
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
      <div className="template-editor-columns">
        <section className="template-editor-form">
          <div className="template-editor-row">
            <div className="field">
              <label htmlFor={`${ids}-name`}>{t('DocEditorName')}</label>
              <input id={`${ids}-name`} value={model.name.value} maxLength={200} onChange={(e) => (model.name.value = e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-entity`}>{t('DocEditorEntity')}</label>
              <select id={`${ids}-entity`} value={entity} onChange={(e) => (model.objectname.value = e.target.value)}>
                <option value="">—</option>
                {entities.map((e) => (
                  <option key={e.logicalName} value={e.logicalName}>
                    {e.displayName}
                  </option>
                ))}
                {entity && !entities.some((e) => e.logicalName === entity) && <option value={entity}>{entity}</option>}
              </select>
            </div>
            <div className="field" role="radiogroup" aria-label={t('DocFormat')}>
              <span className="field-label">{t('DocFormat')}</span>
              <div className="print-formats">
                {([1, 2] as const).map((f) => (
                  <label key={f} className="print-format">
                    <input type="radio" name={`${ids}-format`} checked={model.format.value === f} onChange={() => (model.format.value = f)} />
                    {t(f === 1 ? 'DocFormatPdf' : 'DocFormatWord')}
                  </label>
                ))}
              </div>
            </div>
          </div>
          <div className="field">
            <label htmlFor={`${ids}-body`}>{t('DocEditorBody')}</label>
            <textarea
              id={`${ids}-body`}
              ref={bodyRef}
              className="template-body"
              spellCheck={false}
              value={body}
              onChange={(e) => (model.body.value = e.target.value)}
              aria-invalid={problem !== null}
              aria-describedby={`${ids}-check`}
            />
          </div>
          <p id={`${ids}-check`} className={problem ? 'error-text' : 'doc-valid'} role={problem ? 'alert' : 'status'}>
            {problem ?? (
              <>
                <Icon name="check" /> {t('DocEditorValid')}
              </>
            )}
          </p>
          <p className="muted doc-help">{t('DocEditorHelp')}</p>
          {entity && <FieldPalette entity={entity} onInsert={insert} />}
        </section>
        <PreviewPane model={model} />
      </div>
    </div>
  );
};
