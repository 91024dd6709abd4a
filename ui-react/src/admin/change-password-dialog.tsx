import { useSignals } from '@preact/signals-react/runtime';
import { useId, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { apiClient } from '../api/context.js';
import type { ApiClient } from '../api/client.js';
import { useT } from '../i18n.js';
import { Modal } from '../ui/modal.js';
import { changePasswordModel } from './change-password-model.js';

/**
 * The Change Password dialog (spec 002 sections 2 and 4), for the user's own account (profile
 * menu; the old password is asked for) and on a systemuser record (an administrator sets another
 * user's password; no old password).
 */
export const ChangePasswordDialog = ({ api, userId, askOld, onClose }: { api: ApiClient; userId: string; askOld: boolean; onClose: () => void }) => {
  useSignals();
  const t = useT();
  const ids = useId();
  const model = useMemo(() => changePasswordModel({ api, userId, askOld, onClose }), [api, userId, askOld, onClose]);
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const state = model.state.value;
  const sending = state._tag === 'Sending';
  const done = state._tag === 'Success';
  // The mismatch shows as soon as both are typed, before the submit (spec 002 section 5).
  const mismatch = newPassword !== '' && confirmation !== '' && newPassword !== confirmation;
  return (
    <Modal id="changePasswordDialog" title={t('CmdChangePasswordDialog')} onClose={onClose}>
      <form
        className="password-dialog"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void model.submit({ oldPassword, newPassword, confirmation });
        }}
      >
        <fieldset disabled={sending || done}>
          {askOld && (
            <div className="field">
              <label htmlFor={`${ids}-old`}>{t('LblOldPassword')}</label>
              <input id={`${ids}-old`} type="password" autoComplete="current-password" value={oldPassword} onChange={(e) => setOld(e.target.value)} aria-invalid={state._tag === 'Invalid' && state.problem === 'MsgRequired'} autoFocus />
            </div>
          )}
          <div className="field">
            <label htmlFor={`${ids}-new`}>{t('LblNewPassword')}</label>
            <input id={`${ids}-new`} type="password" autoComplete="new-password" value={newPassword} onChange={(e) => setNew(e.target.value)} autoFocus={!askOld} />
          </div>
          <div className="field">
            <label htmlFor={`${ids}-confirm`}>{t('LblConfirmPassword')}</label>
            <input id={`${ids}-confirm`} type="password" autoComplete="new-password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} aria-invalid={mismatch} />
          </div>
        </fieldset>
        <div className="password-status" aria-live="polite">
          {mismatch || (state._tag === 'Invalid' && state.problem === 'MsgPasswordsDoNotMatch') ? (
            <p className="error-text" role="alert">
              {t('MsgPasswordsDoNotMatch')}
            </p>
          ) : state._tag === 'Invalid' ? (
            <p className="error-text" role="alert">
              {t(state.problem)}
            </p>
          ) : state._tag === 'Error' ? (
            <p className="error-text" role="alert">
              {state.message || t('MsgError')}
            </p>
          ) : done ? (
            <p className="password-success" role="status">
              {t('MsgPasswordChanged')}
            </p>
          ) : sending ? (
            <p className="muted">{t('MsgPasswordSending')}</p>
          ) : null}
        </div>
        <div className="modal-actions">
          <button type="button" className="btn btn-plain" onClick={onClose}>
            {t('CmdCancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={sending || done} aria-busy={sending}>
            {t('CmdChangePasswordDialog')}
          </button>
        </div>
      </form>
    </Modal>
  );
};

/** Opens the dialog in a root of its own (from the profile menu or a record's command bar). */
export const openChangePasswordDialog = (o: { userId: string; askOld: boolean }, api: ApiClient = apiClient): void => {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  const close = () =>
    setTimeout(() => {
      root.unmount();
      host.remove();
    });
  root.render(<ChangePasswordDialog api={api} userId={o.userId} askOld={o.askOld} onClose={close} />);
};
