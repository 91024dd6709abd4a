import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ImportMode, MessageKey, RowAction } from '@tessera/core/internal';
import { useApi } from '../api/context.js';
import { language, useT } from '../i18n.js';
import { session } from '../state/session.js';
import { confirmDialog } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { importModel, type ImportModel } from './import-model.js';
import type { WorkerPort } from './import-protocol.js';

/** The browser's own download of a text file. */
const saveText = (fileName: string, content: string): void => {
  const url = URL.createObjectURL(new Blob([content], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};

const startWorker = (): WorkerPort => new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module' }) as unknown as WorkerPort;

const MODES: ReadonlyArray<{ mode: ImportMode; label: MessageKey }> = [
  { mode: 'update', label: 'LblUpdateExisting' },
  { mode: 'skip', label: 'LblSkipExisting' },
  { mode: 'create', label: 'LblCreateNew' },
];
const ACTION_LABELS: Record<RowAction, MessageKey> = { create: 'LblImportCreate', update: 'LblImportUpdate', skip: 'LblImportSkip', error: 'LblImportError' };

/** The model of one Import screen or modal, for the signed-in session; ended with the component. */
export const useImportModel = (fixedEntity?: string): ImportModel | null => {
  const api = useApi();
  const t = useT();
  const s = session.value;
  const model = useMemo(
    () =>
      s
        ? importModel({
            api,
            caller: s.caller,
            entities: Object.values(s.entities),
            ...(fixedEntity ? { fixedEntity } : {}),
            startWorker,
            lang: () => language.value,
            confirm: (text) => confirmDialog(text, t('CmdImport'), t('CmdCancel')),
            download: saveText,
          })
        : null,
    // Made once per signed-in screen: a refreshed context must not end an import under way.
    [s === null, fixedEntity, api],
  );
  useEffect(() => () => model?.dispose(), [model]);
  return model;
};

/**
 * The Import screen's body (spec 002 section 2), shared by /{appid}/import and the Import Records
 * modal: the selectors, Download Template, Upload File (or drop a file), the preview grid, Import
 * with its confirmation, the progress of the batches with Cancel, and the result.
 */
export const ImportPanel = ({ model }: { model: ImportModel }) => {
  useSignals();
  const t = useT();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const phase = model.phase.value;
  const busy = phase === 'writing';
  const entity = model.entity.value;
  if (model.showObject && model.choices.length === 0) {
    return (
      <p className="empty" role="status">
        {t('MsgImportNoObjects')}
      </p>
    );
  }
  const openPicker = () => input.current?.click();
  return (
    <div className="import-panel">
      <div className="import-settings">
        {model.showObject && (
          <label className="import-field">
            <span>{t('LblImportObject')}</span>
            <select value={model.entityName.value} disabled={busy} onChange={(e) => model.setEntity(e.target.value)}>
              {model.choices.map((e) => (
                <option key={e.logicalName} value={e.logicalName}>
                  {e.displayNamePlural}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="import-field">
          <span>{t('LblFindMatchingBy')}</span>
          <select value={model.matchField.value} disabled={busy || model.mode.value === 'create'} onChange={(e) => model.setMatchField(e.target.value)}>
            <option value="">{t('LblNone')}</option>
            {model.matchFields.value.map((p) => (
              <option key={p.logicalName} value={p.logicalName}>
                {p.displayName}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="import-modes" disabled={busy}>
          <legend>{t('LblMatchingRecords')}</legend>
          {MODES.map((m) => (
            <label key={m.mode}>
              <input type="radio" name={`${id}-mode`} value={m.mode} checked={model.mode.value === m.mode} onChange={() => model.setMode(m.mode)} />
              {t(m.label)}
            </label>
          ))}
        </fieldset>
      </div>

      <div className="command-bar import-commands" role="toolbar" aria-label={t('MenuImport')}>
        <button type="button" className="btn btn-plain" onClick={model.downloadTemplate} disabled={!entity}>
          <Icon name="download" /> {t('CmdDownloadTemplate')}
        </button>
        <button type="button" className="btn btn-plain" onClick={openPicker} disabled={busy || !entity}>
          <Icon name="upload" /> {t('CmdUploadFile')}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void model.importRows()} disabled={!model.canImport.value}>
          <Icon name="check" /> {t('CmdImport')}
        </button>
        <input
          ref={input}
          type="file"
          className="sr-only"
          tabIndex={-1}
          aria-label={t('CmdUploadFile')}
          accept=".csv,.json,text/csv,application/json"
          onChange={(e) => {
            model.chooseFile(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </div>

      <div
        className={`import-drop${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          if (busy) return;
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          model.chooseFile(e.dataTransfer.files?.[0]);
        }}
      >
        <ImportState model={model} onPick={openPicker} />
      </div>
    </div>
  );
};

const ImportState = ({ model, onPick }: { model: ImportModel; onPick: () => void }) => {
  useSignals();
  const t = useT();
  const phase = model.phase.value;
  const file = model.file.value;
  const progress = model.progress.value;
  const wrong = model.wrongFile.value && (
    <p className="import-error" role="alert">
      {t('MsgImportFileKinds')}
    </p>
  );
  if (phase === 'idle') {
    return (
      <div className="import-empty">
        <Icon name="upload" size={28} className="import-empty-icon" />
        <p className="muted">{t('MsgImportEmpty')}</p>
        <button type="button" className="btn btn-link" onClick={onPick}>
          {t('MsgImportDrop')}
        </button>
        {wrong}
      </div>
    );
  }
  const fileLine = file && (
    <p className="import-file">
      <strong>{file.name}</strong> <span className="muted">{formatSize(file.size)}</span>
    </p>
  );
  if (phase === 'checking') {
    return (
      <div className="import-progress" aria-busy="true">
        {fileLine}
        <span role="status">{t('MsgImportReading', { file: file?.name ?? '' })}</span>
        <progress value={progress?.done ?? 0} max={progress?.total ?? 1} aria-label={t('MsgImportReading', { file: file?.name ?? '' })} />
        <div>
          <button type="button" className="btn btn-plain" onClick={model.cancel}>
            {t('CmdCancel')}
          </button>
        </div>
      </div>
    );
  }
  if (phase === 'failed') {
    return (
      <div className="import-result">
        {fileLine}
        <p className="import-error" role="alert">
          {t('MsgImportCheckFailed', { error: model.error.value ?? '' })}
        </p>
        {wrong}
      </div>
    );
  }
  if (phase === 'writing') {
    const total = progress?.total ?? 0;
    return (
      <div className="import-progress" aria-busy="true">
        {fileLine}
        <span role="status">{model.stopping.value ? t('MsgImportStopping') : t('MsgImportWriting', { rows: progress?.done ?? 0, total })}</span>
        <progress value={progress?.done ?? 0} max={total || 1} aria-label={t('MsgImportWriting', { rows: progress?.done ?? 0, total })} />
        <div>
          <button type="button" className="btn btn-plain" onClick={model.cancel} disabled={model.stopping.value}>
            {t('CmdCancel')}
          </button>
        </div>
      </div>
    );
  }
  if (phase === 'done') {
    const o = model.outcome.value!;
    const [first, ...rest] = o.text.split('\n');
    return (
      <div className="import-result">
        {fileLine}
        <h2 className="import-result-title">{t('LblImportResult')}</h2>
        <div className={`import-outcome${o.errors > 0 || o.fatal ? ' has-errors' : ''}`} role="alert">
          <p className="import-outcome-head">{first}</p>
          {rest.length > 0 && (
            <ul className="import-lines import-outcome-lines">
              {rest.map((l, i) => (
                <li key={i}>{l}</li>
              ))}
            </ul>
          )}
        </div>
        {o.notes.length > 0 && <Lines title={t('LblImportProblems')} lines={o.notes} />}
        <div>
          <button type="button" className="btn btn-plain" onClick={() => { model.reset(); onPick(); }}>
            <Icon name="upload" /> {t('CmdUploadFile')}
          </button>
        </div>
      </div>
    );
  }
  return <ImportPreviewView model={model} fileLine={fileLine} wrong={wrong} />;
};

const formatSize = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const Lines = ({ title, lines }: { title: string; lines: readonly string[] }) => (
  <details className="import-details">
    <summary>
      {title} <span className="badge">{lines.length}</span>
    </summary>
    <ul className="import-lines">
      {lines.map((l, i) => (
        <li key={i}>{l}</li>
      ))}
    </ul>
  </details>
);

const ImportPreviewView = ({ model, fileLine, wrong }: { model: ImportModel; fileLine: React.ReactNode; wrong: React.ReactNode }) => {
  useSignals();
  const t = useT();
  const p = model.preview.value!;
  const counts: Array<[MessageKey, number, string]> = [
    ['LblImportRows', p.rows, 'rows'],
    ['LblImportCreate', p.create, 'create'],
    ['LblImportUpdate', p.update, 'update'],
    ['LblImportSkip', p.skip, 'skip'],
    ['LblImportErrors', p.errors, 'errors'],
  ];
  return (
    <div className="import-preview" data-parse-ms={p.parseMs}>
      {fileLine}
      {wrong}
      {p.fatal !== undefined && (
        <p className="import-error" role="alert">
          {p.fatal}
        </p>
      )}
      <dl className="import-counts" aria-label={t('LblImportRows')}>
        {counts.map(([label, n, kind]) => (
          <div key={kind} className={`import-count import-count-${kind}${n > 0 ? ' nonzero' : ''}`}>
            <dt>{t(label)}</dt>
            <dd>{n}</dd>
          </div>
        ))}
      </dl>
      {p.fatal === undefined && p.create + p.update === 0 && (
        <p className="muted" role="status">
          {t('MsgImportNothingToDo')}
        </p>
      )}
      {p.ignoredColumns.length > 0 && (
        <p className="import-ignored">
          <strong>{t('LblIgnoredColumns')}:</strong> {p.ignoredColumns.join('; ')}
        </p>
      )}
      {p.rowsShown.length > 0 && (
        <>
          <p className="muted small import-sample-note">{t('MsgImportSample', { n: p.rowsShown.length, total: p.rows })}</p>
          <div className="import-grid-wrap" tabIndex={0} role="region" aria-label={t('MsgImportSample', { n: p.rowsShown.length, total: p.rows })}>
            <table className="import-grid">
              <thead>
                <tr>
                  <th scope="col">{t('LblImportLine')}</th>
                  <th scope="col">{t('LblImportMarking')}</th>
                  <th scope="col">{t('LblImportProblems')}</th>
                  {p.columns.map((c, i) => (
                    <th key={i} scope="col" className={c.ignored ? 'ignored' : undefined} title={c.ignored ? t('LblIgnoredColumns') : undefined}>
                      {c.header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {p.rowsShown.map((r) => (
                  <tr key={r.line} className={`import-row-${r.action}`}>
                    <td className="num">{r.line}</td>
                    <td>
                      <span className={`import-mark import-mark-${r.action}`}>{t(ACTION_LABELS[r.action])}</span>
                    </td>
                    <td className="import-problems">{r.problems.length > 0 && r.problems.map((x, i) => <div key={i}>{x}</div>)}</td>
                    {p.columns.map((c, i) => (
                      <td key={i} className={c.ignored ? 'ignored' : undefined}>
                        {r.cells[i] ?? ''}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {p.errorLines.length > 0 && <Lines title={t('LblImportErrors')} lines={p.errorLines} />}
      {p.notes.length > 0 && <Lines title={t('LblImportProblems')} lines={p.notes} />}
    </div>
  );
};
