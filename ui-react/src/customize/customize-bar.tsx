import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, type ReactNode } from 'react';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { loadSession, session } from '../state/session.js';
import { alertFailure, confirmDialog, toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { customize } from './customize-state.js';

/** Screens that show customize mode now (the form, the list): the keys act only while one is open. */
let screens = 0;
const onKey = (e: KeyboardEvent) => {
  if (screens > 0 && customize.shortcut(e)) {
    e.preventDefault();
    // Entering is marked for the speed figure (tests/bench/customize-bench.ts).
    if (customize.active.value) performance.mark('customize-entered');
  }
};

/**
 * Ctrl+E toggles customize mode, Meta or Alt plus E enters super edit (spec 001 section 2), on
 * the screens that can show it. One listener for the tab, however many screens are mounted.
 */
export const useCustomizeShortcut = (): void => {
  useEffect(() => {
    if (screens++ === 0) window.addEventListener('keydown', onKey);
    return () => {
      if (--screens === 0) window.removeEventListener('keydown', onKey);
    };
  }, []);
};

/**
 * The customize bar (issue 15): the mode's title, the screen's own tools, who the save is for
 * (only me or everyone), Undo, Discard, Save layout and Exit. It shows only in customize mode.
 */
export const CustomizeBar = ({ children }: { children?: ReactNode }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  if (!customize.active.value) return null;
  const superEdit = customize.level.value === 'super';
  const dirty = customize.dirty.value;
  const saving = customize.saving.value;

  const save = async () => {
    const userId = session.value?.context.user.id;
    if (!userId) return;
    performance.mark('customize-save-start');
    const r = await customize.save(api, userId, async () => void (await loadSession(api)));
    performance.mark('customize-saved');
    if (r._tag === 'Saved') toast(t('CzSaved'));
    else if (r._tag === 'Nothing') toast(t('CzNothingChanged'), 'info');
    else await alertFailure(r.error, t('CmdOk'), (message) => t('CzSaveFailed', { message }));
  };
  const exit = async () => {
    if (dirty && !(await confirmDialog(t('CzAskDiscard'), t('CzDiscard'), t('CmdCancel'), true))) return;
    customize.discard();
    customize.setLevel('off');
  };

  return (
    <section className={`cz-bar ${superEdit ? 'cz-super' : ''}`} aria-label={superEdit ? t('CzSuperTitle') : t('CzTitle')}>
      <div className="cz-bar-head">
        <div className="cz-bar-title">
          <strong>{superEdit ? t('CzSuperTitle') : t('CzTitle')}</strong>
          {dirty && <span className="status-chip">{t('CzChanges')}</span>}
        </div>
        <span className="muted small">{t('CzHelp')}</span>
      </div>
      {children && <div className="cz-bar-tools">{children}</div>}
      <div className="cz-bar-actions">
        <label className="cz-inline">
          <span className="small">{t('CzScope')}</span>
          <select value={customize.scope.value} onChange={(e) => (customize.scope.value = e.target.value === 'everyone' ? 'everyone' : 'private')}>
            <option value="private">{t('CzScopePrivate')}</option>
            <option value="everyone">{t('CzScopeEveryone')}</option>
          </select>
        </label>
        <button type="button" className="btn btn-plain" onClick={customize.undo} disabled={!customize.canUndo.value || saving}>
          <Icon name="undo" /> {t('CzUndo')}
        </button>
        <button type="button" className="btn btn-plain" onClick={customize.discard} disabled={!dirty || saving}>
          {t('CzDiscard')}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={!dirty || saving} aria-busy={saving}>
          <Icon name="save" /> {t('CzSave')}
        </button>
        <button type="button" className="btn btn-plain" onClick={() => void exit()}>
          {t('CzExit')}
        </button>
      </div>
    </section>
  );
};
