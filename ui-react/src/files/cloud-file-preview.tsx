import { useEffect, useMemo, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { formatFileSize } from '../core.js';
import { useT } from '../i18n.js';
import { formatDate, locale } from '../format.js';
import { ServerError } from '../api/client.js';
import { cloudFilePreviewModel, type PreviewFile, type PreviewContent } from './cloud-file-preview-model.js';
import { rotateImage, type PreparedImage } from './image-resize.js';
import { FileIcon } from './file-icons.js';
import { typeLabel } from './file-kind.js';

export type { PreviewFile } from './cloud-file-preview-model.js';

/** The bytes behind an address; a failed answer is 'Server Error: {text}' with its status. */
export const loadBytes = async (url: string): Promise<Blob> => {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new ServerError(res.status, res.statusText, await res.text().catch(() => ''));
  return res.blob();
};

export type CloudFilePreviewProps = {
  files: readonly PreviewFile[];
  /** the file shown first */
  index: number;
  onClose: () => void;
  /**
   * Stores a turned image (a field takes it as its pending file, the CloudFiles panel replaces the
   * drive file). Without it the dialog has no Save.
   */
  onSave?: (file: PreviewFile, image: PreparedImage) => Promise<void>;
  /** what the dialog says after a save; 'Saved' by default */
  savedText?: string;
  /** how bytes are read (zip listings, PDFs, the image to turn); fetch by default */
  load?: (url: string) => Promise<Blob>;
};

/** A size for people: '1.5 MB' with the language's decimal separator. */
const sizeText = (bytes: number) => formatFileSize(bytes, (1.5).toLocaleString(locale()).charAt(1));

/**
 * The preview dialog (spec 001 section 2, dialog id CloudFilePreview): one file at a time;
 * ArrowLeft and ArrowRight move, Escape closes (the native dialog), rotate either way, Save.
 */
export const CloudFilePreview = ({ files, index, onClose, onSave, savedText, load = loadBytes }: CloudFilePreviewProps) => {
  useSignals();
  const t = useT();
  const model = useMemo(() => cloudFilePreviewModel(files, index, { load, rotate: rotateImage, onSave }), []);
  useEffect(() => model.setFiles(files), [files]);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);

  const f = model.current.value;
  const count = model.files.value.length;
  const notice = model.notice.value;
  // Arrow keys on the whole page while the dialog is open: after Save the focused button is
  // disabled and focus falls to the body, outside the dialog.
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (e.key === 'ArrowRight') {
        e.preventDefault();
        model.next();
      } else if (e.key === 'ArrowLeft') {
        e.preventDefault();
        model.previous();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [model]);
  return (
    <dialog
      ref={ref}
      id="CloudFilePreview"
      className="modal file-preview"
      aria-labelledby="CloudFilePreview-title"
      aria-describedby="CloudFilePreview-hint"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div className="modal-head file-preview-head">
        <div className="file-preview-heading">
          <h2 id="CloudFilePreview-title" className="modal-title file-preview-name" title={f?.name}>
            {f?.name ?? t('FilesPreviewTitle')}
          </h2>
          <span className="muted small">
            {count > 1 && t('FilesOfCount', { index: model.index.value + 1, count })}
            {f?.size !== undefined && `${count > 1 ? ' · ' : ''}${sizeText(f.size)}`}
            {f && ` · ${typeLabel(f.name, f.contentType)}`}
          </span>
        </div>
        <button type="button" className="icon-btn" aria-label={t('CmdClose')} onClick={onClose}>
          <FileIcon name="close" />
        </button>
      </div>
      <div className="file-preview-stage">{f && <PreviewBody file={f} content={model.content.value} turns={model.turns.value} />}</div>
      <div className="file-preview-bar">
        <div className="file-preview-nav">
          <button type="button" className="icon-btn" aria-label={t('FilesPrevious')} title={t('FilesPrevious')} onClick={() => model.previous()}>
            <FileIcon name="chevronLeft" />
          </button>
          <button type="button" className="icon-btn" aria-label={t('FilesNext')} title={t('FilesNext')} onClick={() => model.next()}>
            <FileIcon name="chevronRight" />
          </button>
        </div>
        {model.canRotate.value && (
          <div className="file-preview-nav">
            <button type="button" className="icon-btn" aria-label={t('FilesRotateLeft')} title={t('FilesRotateLeft')} onClick={() => model.rotate(-1)}>
              <FileIcon name="rotateLeft" />
            </button>
            <button type="button" className="icon-btn" aria-label={t('FilesRotateRight')} title={t('FilesRotateRight')} onClick={() => model.rotate(1)}>
              <FileIcon name="rotateRight" />
            </button>
          </div>
        )}
        <span className="file-preview-spacer" />
        {f && (
          <a className="btn btn-plain" href={f.url} download={f.name} target="_blank" rel="noreferrer">
            <FileIcon name="download" size={16} />
            {t('CmdDownload')}
          </a>
        )}
        {model.canSaveAtAll && model.canRotate.value && (
          <button type="button" className="btn btn-primary" disabled={!model.canSave.value} onClick={() => void model.save()}>
            {model.saving.value ? t('FilesSaving') : t('CmdSave')}
          </button>
        )}
      </div>
      <p className={`file-preview-notice ${notice === 'noMoreFiles' || model.saveError.value ? 'is-warning' : ''}`} role="status" aria-live="polite">
        {model.saveError.value ? t('FilesSaveFailed', { error: model.saveError.value }) : notice === 'noMoreFiles' ? t('FilesNoMoreFiles') : notice === 'saved' ? (savedText ?? t('FilesSaved')) : ''}
      </p>
      <p id="CloudFilePreview-hint" className="sr-only">
        {t('FilesKeyboardHint')}
      </p>
    </dialog>
  );
};

/** The view of one file: the image (turned), the zip's entries, the PDF, or a download. */
const PreviewBody = ({ file, content, turns }: { file: PreviewFile; content: PreviewContent; turns: number }) => {
  const t = useT();
  switch (content._tag) {
    case 'Image':
      return <TurnedImage key={file.url} file={file} turns={turns} />;
    case 'Loading':
      return <p className="muted">{t('FilesLoading')}</p>;
    case 'Failed':
      return <p className="error-text">{t('FilesLoadFailed', { error: content.message })}</p>;
    case 'NotZip':
      return <p className="error-text">{t('FilesNotZip')}</p>;
    case 'Pdf':
      // Served inline by the blob download; a file not uploaded yet is its object URL.
      return <iframe className="file-preview-pdf" src={file.url} title={file.name} />;
    case 'Zip':
      return <ZipView listing={content.listing} />;
    case 'Other':
      return (
        <div className="file-preview-other">
          <FileIcon name="file" size={48} />
          <p className="muted">{t('FilesNoPreview')}</p>
          <a className="btn btn-primary" href={file.url} download={file.name} target="_blank" rel="noreferrer">
            {t('CmdDownload')}
          </a>
        </div>
      );
  }
};

/** The image turned by CSS; an odd number of quarter turns swaps the room it may take. */
const TurnedImage = ({ file, turns }: { file: PreviewFile; turns: number }) => {
  const t = useT();
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState<{ w: number; h: number } | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setRoom({ w: el.clientWidth, h: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  if (failed) return <p className="error-text">{t('FilesCannotLoadImage')}</p>;
  const odd = turns % 2 === 1;
  const style: React.CSSProperties = {
    transform: `rotate(${turns * 90}deg)`,
    maxWidth: odd && room ? room.h : '100%',
    maxHeight: odd && room ? room.w : '100%',
  };
  return (
    <div className="file-preview-image" ref={ref}>
      <img src={file.url} alt={file.name} style={style} onError={() => setFailed(true)} data-turns={turns} />
    </div>
  );
};

const ZipView = ({ listing }: { listing: Extract<PreviewContent, { _tag: 'Zip' }>['listing'] }) => {
  const t = useT();
  if (listing.total === 0) return <p className="muted">{t('FilesZipEmpty')}</p>;
  return (
    <div className="file-preview-zip">
      <table className="zip-table">
        <caption className="muted small">{listing.entries.length < listing.total ? t('FilesZipMore', { shown: listing.entries.length, n: listing.total }) : t('FilesZipCount', { n: listing.total })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('FilesZipName')}</th>
            <th scope="col">{t('FilesZipModified')}</th>
            <th scope="col" className="num">
              {t('FilesZipSize')}
            </th>
          </tr>
        </thead>
        <tbody>
          {listing.entries.map((e, i) => (
            <tr key={`${i}-${e.name}`}>
              <td className="zip-name">{e.name}</td>
              <td className="nowrap">{formatDate(e.modified, false)}</td>
              <td className="num nowrap">{sizeText(e.size)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};
