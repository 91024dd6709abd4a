import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useMemo, useRef } from 'react';
import { CATALOGUE_LANGUAGES, isLanguage, METADATA_LANGUAGE, type Language } from '@tessera/core/internal';
import { useApi } from '../api/context.js';
import { NavigationGuard } from '../form/navigation-guard.js';
import { LANGUAGE_NAMES, language, useT } from '../i18n.js';
import { confirmDialog, toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { englishOf, isMissing, shownText, type TextKind, type TextRow } from './localization-rows.js';
import { localizationModel, type LocalizationModel } from './localization-model.js';

const KINDS: ReadonlyArray<{ kind: TextKind | 'all'; label: 'LocKindAll' | 'LocKindMetadata' | 'LocKindUi' | 'LocKindOther' }> = [
  { kind: 'all', label: 'LocKindAll' },
  { kind: 'metadata', label: 'LocKindMetadata' },
  { kind: 'ui', label: 'LocKindUi' },
  { kind: 'other', label: 'LocKindOther' },
];

/** /{appid}/customizelocalization: the localization editor (issue 15). */
export const LocalizationPage = () => {
  useSignals();
  const t = useT();
  const api = useApi();
  const ids = useId();
  const model = useMemo(() => localizationModel({ api, language: language.peek() }), [api]);
  const proceeding = useRef(false);
  useEffect(() => void model.load(), [model]);

  const save = async (): Promise<boolean> => {
    const n = model.writes.value.length;
    const ok = await model.save();
    if (ok && n > 0) toast(t('LocSaved', { n }));
    return ok;
  };
  const chooseLanguage = async (l: Language) => {
    if (model.dirty.value && !(await confirmDialog(t('MsgUnsavedChangesText'), t('MsgDiscardChanges'), t('MsgContinueEditing'), true))) return;
    await model.chooseLanguage(l);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
      e.preventDefault();
      if (model.dirty.value && model.status.value === 'ready') void save();
    }
  };

  const status = model.status.value;
  const lang = model.lang.value;
  const saving = status === 'saving';
  const pending = model.writes.value.length;
  const total = model.filtered.value.length;
  const shown = model.shown.value;

  return (
    <div className="screen loc-editor" onKeyDown={onKeyDown}>
      {model.dirty.value && <NavigationGuard onSave={save} proceeding={proceeding} />}
      <div className="screen-head">
        <div className="title-row">
          <h1 className="screen-title">{t('LocTitle')}</h1>
          {pending > 0 && <span className="loc-pending">{t('MsgPendingChanges', { n: pending })}</span>}
        </div>
        <div className="command-bar" role="toolbar" aria-label={t('LocTitle')}>
          <button type="button" className="btn btn-plain" disabled={model.edits.value.size === 0 || saving} onClick={model.discard}>
            <Icon name="undo" /> {t('MsgDiscardChanges')}
          </button>
          <button type="button" className="btn btn-primary" disabled={!model.dirty.value || status !== 'ready'} aria-busy={saving} onClick={() => void save()}>
            <Icon name={saving ? 'hourglass' : 'save'} /> {t('CmdSave')}
          </button>
        </div>
      </div>
      <p className="muted loc-help">{t('LocHelp')}</p>
      <div className="loc-toolbar">
        <div className="field compact">
          <label htmlFor={`${ids}-lang`}>{t('LblLanguage')}</label>
          <select id={`${ids}-lang`} value={lang} onChange={(e) => isLanguage(e.target.value) && void chooseLanguage(e.target.value)}>
            {CATALOGUE_LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_NAMES[l]} ({l})
              </option>
            ))}
          </select>
        </div>
        <div className="field compact loc-search">
          <label htmlFor={`${ids}-search`}>{t('LocSearch')}</label>
          <input id={`${ids}-search`} type="search" value={model.search.value} onChange={(e) => model.setSearch(e.target.value)} />
        </div>
        <div className="field compact">
          <label htmlFor={`${ids}-kind`}>{t('LocKind')}</label>
          <select id={`${ids}-kind`} value={model.kind.value} onChange={(e) => (model.kind.value = e.target.value as TextKind | 'all')}>
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {t(k.label)}
              </option>
            ))}
          </select>
        </div>
        <label className="loc-missing-toggle">
          <input type="checkbox" checked={model.missingOnly.value} onChange={(e) => (model.missingOnly.value = e.target.checked)} />
          {t('LocMissingOnly')}
          <span className="badge" aria-hidden="true">
            {model.missingCount.value}
          </span>
        </label>
      </div>
      {model.saveError.value && (
        <p className="error-text" role="alert">
          {model.saveError.value}
        </p>
      )}
      {status === 'loading' ? (
        <p className="muted" aria-busy="true">
          {t('MsgLoading')}
        </p>
      ) : status === 'failed' ? (
        <div className="error-text" role="alert">
          <p>{model.loadError.value ?? t('MsgSomethingWentWrong')}</p>
          <button type="button" className="btn btn-plain" onClick={() => void model.load()}>
            <Icon name="reload" /> {t('CmdReload')}
          </button>
        </div>
      ) : total === 0 ? (
        <p className="empty">{model.missingOnly.value && model.search.value === '' ? t('LocNothingMissing') : t('LocNoMatch')}</p>
      ) : (
        <>
          <p className="muted loc-count" aria-live="polite">
            {t('LocShowing', { shown: shown.length, total })} · {t('LocEditHelp')}
          </p>
          <TextTable model={model} rows={shown} />
          {shown.length < total && (
            <button type="button" className="btn btn-plain loc-more" onClick={model.showMore}>
              {t('CmdShowMore')}
            </button>
          )}
        </>
      )}
    </div>
  );
};

const TextTable = ({ model, rows }: { model: LocalizationModel; rows: readonly TextRow[] }) => {
  useSignals();
  const t = useT();
  const lang = model.lang.value;
  const tableRef = useRef<HTMLTableElement>(null);
  const english = lang === METADATA_LANGUAGE;
  const focusRow = (i: number) => tableRef.current?.querySelector<HTMLInputElement>(`input[data-row="${i}"]`)?.focus();
  return (
    <div className="loc-table-wrap">
      <table className="grid loc-grid" ref={tableRef}>
        <thead>
          <tr>
            <th scope="col">{t('LocKey')}</th>
            <th scope="col">{english ? t('LocBuiltIn') : t('LocEnglish')}</th>
            <th scope="col">{LANGUAGE_NAMES[lang]}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => {
            const edited = model.edits.value.get(r.key);
            const value = edited ?? shownText(r);
            const changed = edited !== undefined && edited !== shownText(r);
            const source = english ? r.original : englishOf(r);
            return (
              <tr key={r.key} className={changed ? 'loc-changed' : undefined}>
                <td className="loc-key" data-label={t('LocKey')}>
                  <code>{r.key}</code>
                </td>
                <td className="loc-en" data-label={english ? t('LocBuiltIn') : t('LocEnglish')} lang="en">
                  {source || <span className="muted">—</span>}
                </td>
                <td className="loc-text" data-label={LANGUAGE_NAMES[lang]}>
                  <div className="loc-cell">
                    <input
                      data-row={i}
                      lang={lang === 'cz' ? 'cs' : lang}
                      value={value}
                      placeholder={r.builtIn ?? englishOf(r)}
                      aria-label={t('LocTextIn', { key: r.key, language: LANGUAGE_NAMES[lang] })}
                      aria-invalid={value === '' && isMissing(r) ? true : undefined}
                      onChange={(e) => model.edit(r.key, e.target.value)}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter') {
                          e.preventDefault();
                          focusRow(e.shiftKey ? i - 1 : i + 1);
                        } else if (e.key === 'Escape' && edited !== undefined) {
                          e.preventDefault();
                          model.revert(r.key);
                        }
                      }}
                    />
                    {changed ? (
                      <button type="button" className="icon-btn" title={t('LocUndo')} aria-label={t('LocUndo')} onClick={() => model.revert(r.key)}>
                        <Icon name="undo" />
                      </button>
                    ) : r.record && r.builtIn !== undefined && r.record.text !== r.builtIn ? (
                      <button type="button" className="icon-btn" title={`${t('LocUseBuiltIn')}: ${r.builtIn}`} aria-label={t('LocUseBuiltIn')} onClick={() => model.edit(r.key, '')}>
                        <Icon name="reload" />
                      </button>
                    ) : null}
                  </div>
                  {r.record && !changed ? (
                    <span className="loc-tag loc-tag-own">{t('LocCustomized')}</span>
                  ) : isMissing(r) && !changed ? (
                    <span className="loc-tag loc-tag-missing">{t('LocMissing')}</span>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
};

/** The route's component. */
export const LocalizationRoute = LocalizationPage;
