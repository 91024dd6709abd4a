import { useEffect, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { FormField, Property } from '../core.js';
import { formatFileSize, hasFlag } from '../core.js';
import { t as translate, useT } from '../i18n.js';
import { locale } from '../format.js';
import { useApi } from '../api/context.js';
import { session } from '../state/session.js';
import type { PanelContext } from '../form/panel-context.js';
import { fileFieldModel, uploadFailureText, type FileFieldModel } from './file-field-model.js';
import { maxImageSizeOf } from './image-resize.js';
import { fileKind, typeLabel } from './file-kind.js';
import { CloudFilePreview, type PreviewFile } from './cloud-file-preview.js';
import { knownFileInfo, useBlobUrl, useStoredFileInfo } from './stored-file.js';
import { FileIcon } from './file-icons.js';

/**
 * The editor of a File or Image field on a record form (issue 18): choose by button or drop;
 * name, size and type; an image's thumbnail; images made smaller in the browser to the field's
 * maximum (its form field's customComponentParameters.maxImageSize, default 1200 px, 0 none); the
 * file uploaded when the record is saved (file-field-model.ts), with its progress; remove and
 * replace; the preview dialog CloudFilePreview over the form's files.
 */

/** Whether a property is edited by this editor. */
export const isFileProperty = (p: Property): boolean => p.type === 'String' && (hasFlag(p, 'Image') || hasFlag(p, 'File'));

/**
 * One model per form and field, for the form's life: a field on a tab that is not shown is
 * unmounted, and its chosen file must still be uploaded with the record (as use-many-to-many.ts).
 * The key is the form model's `participate` (one per form).
 */
const forms = new WeakMap<PanelContext['participate'], Map<string, { model: FileFieldModel; registered: boolean }>>();

const useFileFieldModel = (ctx: PanelContext, p: Property, f: FormField): FileFieldModel => {
  const api = useApi();
  let byField = forms.get(ctx.participate);
  if (!byField) forms.set(ctx.participate, (byField = new Map()));
  let state = byField.get(p.logicalName);
  if (!state) {
    const model = fileFieldModel({
      api,
      entity: ctx.entity.logicalName,
      field: p.logicalName,
      image: hasFlag(p, 'Image'),
      maxImageSize: maxImageSizeOf(f.customComponentParameters),
      failureText: (e) => uploadFailureText(e, (text) => translate('MsgServerError', { text })),
    });
    state = { model, registered: false };
    byField.set(p.logicalName, state);
  }
  const s = state;
  useEffect(() => {
    if (s.registered) return;
    s.registered = true;
    ctx.participate(s.model.participant);
  }, [s]);
  return s.model;
};

const sizeText = (bytes: number) => formatFileSize(bytes, (1.5).toLocaleString(locale()).charAt(1));

/** The form's files for the preview's previous and next: each file field drawn on it, pending or stored. */
const formFiles = (ctx: PanelContext, blobUrl: (name: string) => string): PreviewFile[] => {
  const byField = forms.get(ctx.participate);
  if (!byField) return [];
  const order = ctx.entity.properties.map((x) => x.logicalName);
  return [...byField.entries()]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .flatMap(([field, { model }]): PreviewFile[] => {
      const pending = model.pending.value;
      if (pending) return [{ key: field, name: pending.fileName, url: pending.url, contentType: pending.contentType, size: pending.size, blob: pending.blob }];
      const stored = ctx.record[field];
      if (typeof stored !== 'string' || !stored) return [];
      const url = blobUrl(stored);
      const info = knownFileInfo(url);
      return [{ key: field, name: info?.fileName ?? stored, url, contentType: info?.contentType, size: info?.size }];
    });
};

type Props = { id: string; p: Property; f: FormField; ctx: PanelContext; disabled: boolean; invalid: boolean; describedBy?: string; label: string };

export const FileField = ({ id, p, f, ctx, disabled, invalid, describedBy, label }: Props) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const model = useFileFieldModel(ctx, p, f);
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [previewAt, setPreviewAt] = useState<number | null>(null);
  const [thumbFailed, setThumbFailed] = useState(false);

  const value = ctx.record[p.logicalName];
  const stored = typeof value === 'string' ? value : '';
  const storedUrl = useBlobUrl(stored);
  const info = useStoredFileInfo(model.pending.value ? '' : storedUrl);
  const pending = model.pending.value;
  const progress = model.progress.value;
  const isImageField = model.image;

  useEffect(() => setThumbFailed(false), [storedUrl, pending?.url]);

  const shown = pending
    ? { name: pending.fileName, url: pending.url, size: pending.size, type: pending.contentType }
    : stored
      ? { name: info?.fileName ?? stored, url: storedUrl, size: info?.size, type: info?.contentType }
      : null;
  const kind = shown ? fileKind(shown.name, shown.type) : 'other';

  const choose = async (file: File | undefined) => {
    if (!file || disabled) return;
    const failure = await model.choose(file, file.name);
    if (failure) model.setError(t(failure._tag === 'NotAnImage' ? 'FilesNotAnImage' : 'FilesCannotLoadImage'));
  };
  const remove = () => {
    model.discard();
    if (stored) ctx.setValue(p.logicalName, null);
  };
  const blobUrl = (name: string) => {
    const c = session.value?.context;
    return c ? api.blobUrl(c, name) : '';
  };
  const openPreview = () => {
    const files = formFiles(ctx, blobUrl);
    const at = files.findIndex((x) => x.key === p.logicalName);
    setPreviewAt(at >= 0 ? at : 0);
  };
  // While the preview is open its files follow the form (a turned image saved into a field).
  const previewFiles = previewAt === null ? [] : formFiles(ctx, blobUrl);

  const dropProps = disabled
    ? {}
    : {
        onDragOver: (e: React.DragEvent) => {
          if (!e.dataTransfer.types.includes('Files')) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
          setOver(true);
        },
        onDragLeave: (e: React.DragEvent) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
        },
        onDrop: (e: React.DragEvent) => {
          e.preventDefault();
          setOver(false);
          void choose(e.dataTransfer.files[0]);
        },
      };

  const details = shown
    ? [shown.size !== undefined ? sizeText(shown.size) : '', typeLabel(shown.name, shown.type), pending?.resized && pending.width ? t('FilesResized', { width: pending.width, height: pending.height ?? 0 }) : '']
        .filter(Boolean)
        .join(' · ')
    : '';

  return (
    <div className={`file-field ${over ? 'is-over' : ''} ${invalid ? 'is-invalid' : ''}`} {...dropProps} data-file-field={p.logicalName}>
      {shown ? (
        <div className="file-card">
          <button type="button" className="file-thumb" onClick={openPreview} aria-label={t('FilesPreview', { name: shown.name })} title={t('FilesPreview', { name: shown.name })}>
            {kind === 'image' && !thumbFailed ? <img src={shown.url} alt="" loading="lazy" onError={() => setThumbFailed(true)} /> : <FileIcon name={kind === 'image' ? 'image' : 'file'} size={26} />}
          </button>
          <div className="file-meta">
            <button type="button" id={id} className="file-name" title={shown.name} onClick={openPreview} aria-labelledby={`${id}-label ${id}`} aria-describedby={describedBy} aria-invalid={invalid || undefined}>
              {shown.name}
            </button>
            {details && <span className="muted small">{details}</span>}
            {pending && progress === null && !pending.uploaded && <span className="hint file-pending">{t('FilesUploadOnSave')}</span>}
            {progress !== null && (
              <span className="file-progress">
                <progress max={1} value={progress} aria-label={t('FilesUploading', { percent: Math.round(progress * 100) })} />
                <span className="hint">{t('FilesUploading', { percent: Math.round(progress * 100) })}</span>
              </span>
            )}
          </div>
          <div className="file-actions">
            {!pending && shown.url && (
              <a className="icon-btn" href={shown.url} download={shown.name} target="_blank" rel="noreferrer" aria-label={`${t('CmdDownload')}: ${shown.name}`} title={t('CmdDownload')}>
                <FileIcon name="download" />
              </a>
            )}
            {!disabled && (
              <>
                <button type="button" className="icon-btn" onClick={() => input.current?.click()} aria-label={`${t('FilesReplace')}: ${label}`} title={t('FilesReplace')}>
                  <FileIcon name="upload" />
                </button>
                <button type="button" className="icon-btn" onClick={remove} aria-label={`${t('CmdRemove')}: ${label}`} title={t('CmdRemove')}>
                  <FileIcon name="close" />
                </button>
              </>
            )}
          </div>
        </div>
      ) : disabled ? (
        <span className="muted small" id={id}>
          {t('FilesNoFile')}
        </span>
      ) : (
        <div className="file-drop">
          <button type="button" id={id} className="btn btn-plain" onClick={() => input.current?.click()} aria-labelledby={`${id}-label ${id}`} aria-describedby={describedBy} aria-invalid={invalid || undefined}>
            <FileIcon name={isImageField ? 'image' : 'upload'} size={16} />
            {t(isImageField ? 'FilesChooseImage' : 'FilesChoose')}
          </button>
          <span className="muted small">{over ? t('FilesDropHere') : t('FilesDropHint')}</span>
        </div>
      )}
      {model.preparing.value && <span className="hint">{t('FilesPreparing')}</span>}
      {model.error.value && (
        <span className="error-text small" role="alert">
          {model.error.value}
        </span>
      )}
      {!disabled && (
        <input
          ref={input}
          type="file"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          accept={isImageField ? 'image/*' : undefined}
          onChange={(e) => {
            void choose(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      )}
      {previewAt !== null && previewFiles.length > 0 && (
        <CloudFilePreview
          files={previewFiles}
          index={previewAt}
          onClose={() => setPreviewAt(null)}
          savedText={t('FilesSavedWithRecord')}
          onSave={
            disabled
              ? undefined
              : async (file, image) => {
                  forms.get(ctx.participate)?.get(file.key)?.model.replace(image);
                }
          }
        />
      )}
    </div>
  );
};
