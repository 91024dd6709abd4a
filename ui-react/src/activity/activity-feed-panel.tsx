import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { canAccess, relativeTime, relativeTimeText, ACTIVITY_ENTITY, type FieldValue } from '../core.js';
import { useApi } from '../api/context.js';
import { formatDate, lookupLabel } from '../format.js';
import { language, useT } from '../i18n.js';
import { objectChangedEvent } from '../state/realtime.js';
import { caller, entityOf, session } from '../state/session.js';
import type { CustomPanelProps } from '../form/custom-panels.js';
import { activityFeedModel, type ActivityFeedModel, type FeedItem } from './activity-feed-model.js';
import { downscaleImage } from './downscale-image.js';
import { FeedIcon } from './feed-icons.js';
import { CloudFilePreview, type PreviewFile } from '../files/cloud-file-preview.js';

/** How often relative times ('5 min ago') are brought up to date. */
const TICK_MS = 30_000;

const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const newId = (): string => crypto.randomUUID();

/** A datetime-local input's value for an instant, in the browser's zone ('2026-11-26T06:00'). */
const localInput = (d: Date): string => {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};

/** Initials of a person for the avatar. */
const initials = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('') || '?';

/**
 * The activity feed (customComponent `activityfeed`, issue 18, spec 001 "Activity feed"): the
 * record's comments newest first with the composer on top. Enter sends, Shift+Enter starts a new
 * line; a file comes by the attach button, by paste or by drop; each item has its reminder bell;
 * a long body folds at 10.64em with Show More; new comments of colleagues arrive through the
 * realtime stream. What a user sees is what the server lets them read (the feed follows the record).
 */
const ActivityFeedPanel = ({ panel, ctx }: CustomPanelProps) => {
  const t = useT();
  if (ctx.isNew || !ctx.recordId) return <p className="empty">{t('MsgSaveToAdd')}</p>;
  return <Feed key={`${ctx.entity.logicalName}/${ctx.recordId}`} label={panel.label ?? undefined} objectName={ctx.entity.logicalName} objectId={ctx.recordId} />;
};
export default ActivityFeedPanel;

const Feed = ({ label, objectName, objectId }: { label?: string; objectName: string; objectId: string }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const model = useMemo(
    () => activityFeedModel({ api, objectName, objectId, now: () => new Date(), timeZone: browserZone(), downscale: downscaleImage, newId }),
    [api, objectName, objectId],
  );
  const [now, setNow] = useState(() => Date.now());
  const [dragging, setDragging] = useState(false);
  // The attachment shown in the preview dialog (CloudFilePreview, spec 001 section 2), by item id.
  const [previewing, setPreviewing] = useState<string | null>(null);

  useEffect(() => {
    void model.load();
    const onChange = (e: Event) => {
      const d = (e as CustomEvent<{ id?: string; operation?: string }>).detail;
      if (d?.id) void model.changed(d.id, d.operation ?? 'update');
    };
    const ev = objectChangedEvent(ACTIVITY_ENTITY);
    window.addEventListener(ev, onChange);
    const tick = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => {
      window.removeEventListener(ev, onChange);
      clearInterval(tick);
    };
  }, [model]);

  const status = model.status.value;
  const items = model.items.value;
  const ctx = session.value?.context;
  const previewFiles: PreviewFile[] = ctx
    ? items.flatMap((x) => (x.attachment ? [{ key: x.id, name: x.attachment.name, url: api.blobUrl(ctx, x.attachment.file), contentType: x.attachment.contentType, size: x.attachment.size ?? undefined, modified: x.createdon }] : []))
    : [];
  const previewIndex = previewing === null ? -1 : previewFiles.findIndex((f) => f.key === previewing);
  const filesOf = (e: DragEvent | ClipboardEvent): File[] => {
    const list = 'dataTransfer' in e ? e.dataTransfer?.files : e.clipboardData?.files;
    return list ? Array.from(list) : [];
  };
  const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');

  return (
    <section
      className={`panel activity-feed${dragging ? ' dragging' : ''}`}
      aria-label={label ?? entityOf(ACTIVITY_ENTITY)?.displayNamePlural ?? ACTIVITY_ENTITY}
      aria-busy={status === 'loading'}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(e) => {
        const files = filesOf(e);
        setDragging(false);
        if (files.length === 0) return;
        e.preventDefault();
        model.attach(files[0], files[0].name);
      }}
    >
      {label && <h2 className="panel-title">{label}</h2>}
      <Composer model={model} />
      {dragging && (
        <div className="activity-drop" aria-hidden="true">
          <FeedIcon name="attach" /> {t('ActivityDropHere')}
        </div>
      )}
      {status === 'loading' ? (
        <div className="activity-loading">
          <span className="skeleton" />
          <span className="skeleton" />
        </div>
      ) : status === 'error' ? (
        <div className="notice" role="alert">
          <p className="error-text">{t('ActivityLoadFailed')}</p>
          {model.error.value && <p className="mono small">{model.error.value}</p>}
          <button type="button" className="btn btn-plain" onClick={() => void model.load()}>
            {t('CmdReload')}
          </button>
        </div>
      ) : items.length === 0 ? (
        <p className="empty activity-empty">{t('ActivityEmpty')}</p>
      ) : (
        <ol className="activity-list" aria-live="polite">
          {items.map((item) => (
            <Item key={item.id} item={item} model={model} now={now} onPreview={() => setPreviewing(item.id)} />
          ))}
        </ol>
      )}
      {previewIndex >= 0 && <CloudFilePreview files={previewFiles} index={previewIndex} onClose={() => setPreviewing(null)} />}
      {status === 'ready' && model.more.value && (
        <button type="button" className="btn btn-plain activity-older" disabled={model.loadingMore.value} onClick={() => void model.loadMore()}>
          {t('ActivityShowOlder')}
        </button>
      )}
    </section>
  );
};

const Composer = ({ model }: { model: ActivityFeedModel }) => {
  useSignals();
  const t = useT();
  const fileInput = useRef<HTMLInputElement>(null);
  const pending = model.pending.value;
  const progress = model.progress.value;
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter is a new line; Enter that ends an IME composition is not a send.
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    void model.send();
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(e.clipboardData?.files ?? []);
    if (files.length === 0) return;
    e.preventDefault();
    const f = files[0];
    model.attach(f, f.name || `pasted.${(f.type.split('/')[1] ?? 'png').replace('jpeg', 'jpg')}`);
  };
  const rows = Math.min(8, Math.max(2, model.draft.value.split('\n').length));
  return (
    <div className="activity-composer">
      <textarea
        className="input activity-input"
        placeholder={t('ActivityPlaceholder')}
        aria-label={t('ActivityPlaceholder')}
        title={t('ActivityComposerHint')}
        rows={rows}
        value={model.draft.value}
        disabled={model.sending.value}
        onChange={(e) => model.setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
      {pending && (
        <div className="activity-pending">
          <FeedIcon name="attach" />
          <span className="activity-pending-name">{pending.name}</span>
          {progress !== null ? (
            <span className="muted small" role="status">
              {t('ActivityUploading', { name: `${Math.round(progress * 100)} %` })}
            </span>
          ) : (
            <button type="button" className="icon-btn" aria-label={t('ActivityRemoveAttachment', { name: pending.name })} title={t('ActivityRemoveAttachment', { name: pending.name })} onClick={() => model.removeAttachment()}>
              <FeedIcon name="close" />
            </button>
          )}
        </div>
      )}
      <div className="activity-composer-bar">
        <button type="button" className="icon-btn" aria-label={t('ActivityAttach')} title={t('ActivityAttach')} disabled={model.sending.value} onClick={() => fileInput.current?.click()}>
          <FeedIcon name="attach" />
        </button>
        <input
          ref={fileInput}
          type="file"
          hidden
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) model.attach(f, f.name);
            e.target.value = '';
          }}
        />
        <span className="muted small activity-hint">{t('ActivityComposerHint')}</span>
        <button type="button" className="btn btn-primary activity-send" disabled={!model.canSend.value} onClick={() => void model.send()}>
          <FeedIcon name="send" /> {t('ActivitySend')}
        </button>
      </div>
      {model.sendError.value && (
        <p className="error-text small" role="alert">
          {model.sendError.value}
        </p>
      )}
    </div>
  );
};

const Item = ({ item, model, now, onPreview }: { item: FeedItem; model: ActivityFeedModel; now: number; onPreview: () => void }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const me = caller.value;
  const owner = lookupLabel(item.owner as FieldValue) || t('LblAnotherUser');
  const rt = relativeTime(item.createdon, now);
  const when = rt ? relativeTimeText(rt, (d) => formatDate(d.toISOString(), false), language.value) : '';
  const expanded = model.expanded.value.has(item.id);
  const body = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    const measure = () => setOverflows(expanded || el.scrollHeight > el.clientHeight + 1);
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [item.body, expanded]);
  const mayEdit = !!me && canAccess(me, 'update', ACTIVITY_ENTITY, { ownerid: item.owner });
  const ctx = session.value?.context;
  const a = item.attachment;
  const url = a && ctx ? api.blobUrl(ctx, a.file) : '';
  const isImage = !!a && /^image\//i.test(a.contentType);
  return (
    <li className="activity-item">
      <span className="activity-avatar" aria-hidden="true">
        {initials(owner)}
      </span>
      <div className="activity-main">
        <div className="activity-head">
          <strong className="activity-owner">{owner}</strong>
          <time className="muted small" dateTime={item.createdon} title={formatDate(item.createdon, false)}>
            {when}
          </time>
          <Bell item={item} model={model} mayEdit={mayEdit} />
        </div>
        <div ref={body} className={`activity-body${expanded ? ' expanded' : ''}`}>
          {item.body}
        </div>
        {overflows && (
          <button type="button" className="btn-link activity-more" aria-expanded={expanded} onClick={() => model.toggleExpanded(item.id)}>
            {expanded ? t('ActivityShowLess') : t('ActivityShowMore')}
          </button>
        )}
        {a && (
          <a
            className="activity-attachment"
            href={url}
            target="_blank"
            rel="noopener"
            aria-label={t('ActivityOpenAttachment', { name: a.name })}
            onClick={(e) => {
              // A plain click previews (a modified click opens the file in a new tab as usual).
              if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
              e.preventDefault();
              onPreview();
            }}
          >
            {isImage ? <img src={url} alt={a.name} loading="lazy" /> : <FeedIcon name="attach" />}
            <span>{a.name}</span>
          </a>
        )}
      </div>
    </li>
  );
};

/** The reminder bell of an item: shows when the reminder is; opens a small editor (default next day 06:00). */
const Bell = ({ item, model, mayEdit }: { item: FeedItem; model: ActivityFeedModel; mayEdit: boolean }) => {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
  const text = item.reminder ? t('ActivityReminderAt', { when: formatDate(item.reminder, false) }) : t('ActivitySetReminder');
  const save = async (at: string | null) => {
    if (await model.setReminder(item.id, at)) setOpen(false);
  };
  if (!mayEdit && !item.reminder) return null;
  return (
    <div className="activity-bell" ref={box} onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <button
        type="button"
        className={`icon-btn${item.reminder ? ' active' : ''}`}
        aria-label={text}
        title={text}
        aria-expanded={open}
        disabled={!mayEdit}
        onClick={() => {
          setValue(localInput(model.reminderProposal(item)));
          setOpen(!open);
        }}
      >
        <FeedIcon name={item.reminder ? 'bellOn' : 'bell'} />
      </button>
      {item.reminder && <span className="activity-reminder small">{formatDate(item.reminder, false)}</span>}
      {open && (
        <div className="activity-bell-pop" role="dialog" aria-label={t('ActivityReminder')}>
          <label className="small muted" htmlFor={`rem-${item.id}`}>
            {t('ActivityReminder')}
          </label>
          <input id={`rem-${item.id}`} className="input" type="datetime-local" value={value} autoFocus onChange={(e) => setValue(e.target.value)} />
          <div className="activity-bell-actions">
            {item.reminder && (
              <button type="button" className="btn btn-plain" onClick={() => void save(null)}>
                {t('ActivityClearReminder')}
              </button>
            )}
            <button type="button" className="btn btn-primary" disabled={value === '' || Number.isNaN(new Date(value).getTime())} onClick={() => void save(new Date(value).toISOString())}>
              {t('CmdSave')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
};
