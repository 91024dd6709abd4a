import { useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { DriveFileAnswer, Panel } from '@tessera/core/internal';
import { formatFileSize } from '../core.js';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { formatDate, locale } from '../format.js';
import { CloudFilePreview } from '../files/cloud-file-preview.js';
import { FileIcon } from '../files/file-icons.js';
import { fileKind } from '../files/file-kind.js';
import { downscaleImage } from '../files/image-resize.js';
import type { PanelContext } from '../form/panel-context.js';
import { cloudFilesModel } from './cloud-files-model.js';

const sizeText = (bytes: number) => formatFileSize(bytes, (1.5).toLocaleString(locale()).charAt(1));

const FolderIcon = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d="M3 6h6l2 2h10v11H3z" />
  </svg>
);

/**
 * The CloudFiles panel (spec 001 "Cloud file browser"; docs/cloud-files.md): the record's folder
 * in OneDrive with New folder, Upload (button or drop), Rename, Delete and the preview dialog.
 */
export const CloudFilesPanel = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const target = ctx.recordId ? { entity: ctx.entity.logicalName, id: ctx.recordId, panel: panel.name } : null;
  const model = useMemo(() => cloudFilesModel(panel, target, { api, downscale: downscaleImage }), [ctx.recordId, panel.name, ctx.entity.logicalName]);
  useEffect(() => void model.load(), [model]);
  const input = useRef<HTMLInputElement>(null);
  const [newFolder, setNewFolder] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [dragging, setDragging] = useState(false);
  const canChange = model.canChange && !ctx.readOnly && !model.notConfigured.value;
  const busy = model.busy.value;
  const emptyText = panel.emptyMessage ?? t('MsgNoOneDriveFolder');

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!canChange) return;
    const files = [...e.dataTransfer.files];
    if (files.length) void model.upload(files);
  };
  const submitFolder = async () => {
    if (newFolder && newFolder.trim()) await model.createFolder(newFolder);
    setNewFolder(null);
  };
  const submitRename = async (item: DriveFileAnswer) => {
    if (renaming) await model.rename(item, renaming.name);
    setRenaming(null);
  };
  const keys = (submit: () => void, cancel: () => void) => (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      submit();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      cancel();
    }
  };
  const crumbs = model.folder.value.slice(-1 - model.path.value.length);
  const preview = model.previewIndex.value;

  return (
    <section
      className={`panel cloud-files ${dragging ? 'is-dragging' : ''}`}
      aria-label={panel.label ?? t('CloudFiles')}
      aria-busy={model.loading.value || busy !== ''}
      onDragOver={(e) => {
        if (!canChange) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div className="cloud-files-head">
        {panel.label && panel.showLabel !== false && <h2 className="panel-title">{panel.label}</h2>}
        <div className="cloud-files-tools">
          {canChange && (
            <>
              <button type="button" className="btn btn-plain" onClick={() => setNewFolder('')} disabled={busy !== ''}>
                <FolderIcon /> {t('CloudNewFolder')}
              </button>
              <button type="button" className="btn btn-plain" onClick={() => input.current?.click()} disabled={busy !== ''}>
                <FileIcon name="upload" /> {t('CloudUpload')}
              </button>
              <input
                ref={input}
                type="file"
                multiple
                hidden
                aria-label={t('CloudUpload')}
                onChange={(e) => {
                  const files = [...(e.target.files ?? [])];
                  e.target.value = '';
                  if (files.length) void model.upload(files);
                }}
              />
            </>
          )}
          {target && !model.notConfigured.value && (
            <button type="button" className="icon-btn" aria-label={t('CmdRefresh')} title={t('CmdRefresh')} onClick={() => void model.load()}>
              ↻
            </button>
          )}
        </div>
      </div>
      {crumbs.length > 0 && !model.missing.value && (
        <nav className="cloud-files-crumbs" aria-label={t('CloudFolderPath')}>
          {crumbs.map((c, i) => (
            <span key={`${i}-${c}`}>
              {i > 0 && <span aria-hidden="true"> / </span>}
              {i < crumbs.length - 1 ? (
                <button type="button" className="link-btn" onClick={() => model.up(i)}>
                  {c}
                </button>
              ) : (
                <strong>{c}</strong>
              )}
            </span>
          ))}
        </nav>
      )}
      {newFolder !== null && (
        <div className="cloud-files-new">
          <input
            autoFocus
            className="input"
            aria-label={t('CloudFolderName')}
            placeholder={t('CloudFolderName')}
            value={newFolder}
            onChange={(e) => setNewFolder(e.target.value)}
            onKeyDown={keys(() => void submitFolder(), () => setNewFolder(null))}
          />
          <button type="button" className="btn btn-primary" disabled={!newFolder.trim()} onClick={() => void submitFolder()}>
            {t('CloudCreate')}
          </button>
          <button type="button" className="btn btn-plain" onClick={() => setNewFolder(null)}>
            {t('CmdCancel')}
          </button>
        </div>
      )}
      {busy && (
        <p className="muted small" role="status">
          {t('CloudWorking', { name: busy })}
        </p>
      )}
      {model.error.value && (
        <p className="error-text" role="alert">
          {panel.errorMessage ? `${panel.errorMessage} ` : ''}
          {model.error.value}
        </p>
      )}
      {model.loading.value && model.items.value.length === 0 ? (
        <p className="muted">{t('MsgLoading')}</p>
      ) : model.missing.value || model.isEmpty.value ? (
        <p className="empty cloud-files-empty">
          {emptyText}
          {canChange && <span className="muted small"> {t('CloudDropHint')}</span>}
        </p>
      ) : (
        <ul className="cloud-files-list">
          {model.items.value.map((item) => {
            const editing = renaming?.id === item.id;
            return (
              <li key={item.id} className="cloud-file">
                <span className="cloud-file-thumb" aria-hidden="true">
                  {item.folder ? <FolderIcon /> : item.thumbnail ? <img src={item.thumbnail} alt="" loading="lazy" /> : <FileIcon name={fileKind(item.name, item.mimeType ?? undefined) === 'image' ? 'image' : 'file'} />}
                </span>
                {editing ? (
                  <input
                    autoFocus
                    className="input cloud-file-rename"
                    aria-label={t('CloudNewName')}
                    value={renaming.name}
                    onChange={(e) => setRenaming({ id: item.id, name: e.target.value })}
                    onKeyDown={keys(() => void submitRename(item), () => setRenaming(null))}
                    onBlur={() => void submitRename(item)}
                  />
                ) : (
                  <button type="button" className="link-btn cloud-file-name" title={item.name} onClick={() => model.open(item)}>
                    {item.name}
                  </button>
                )}
                <span className="muted small cloud-file-meta">
                  {item.folder ? t('CloudItems', { n: item.childCount ?? 0 }) : sizeText(item.size)}
                  {item.lastModifiedDateTime && ` · ${formatDate(item.lastModifiedDateTime, false)}`}
                </span>
                {canChange && !editing && (
                  <span className="cloud-file-actions">
                    <button type="button" className="icon-btn" aria-label={`${t('CloudRename')} ${item.name}`} title={t('CloudRename')} onClick={() => setRenaming({ id: item.id, name: item.name })}>
                      ✎
                    </button>
                    <button
                      type="button"
                      className="icon-btn"
                      aria-label={`${t('CmdDelete')} ${item.name}`}
                      title={t('CmdDelete')}
                      onClick={() => {
                        if (window.confirm(t('CloudAskDelete', { name: item.name }))) void model.remove(item);
                      }}
                    >
                      <FileIcon name="close" />
                    </button>
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {preview !== null && (
        <CloudFilePreview
          files={model.previewFiles.value}
          index={preview}
          onClose={() => (model.previewIndex.value = null)}
          {...(canChange ? { onSave: model.saveTurned } : {})}
        />
      )}
    </section>
  );
};

export default CloudFilesPanel;
