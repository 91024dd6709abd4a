import { useEffect, useRef } from 'react';
import { useT } from '../i18n.js';

/** The inactivity popup (spec 000 sections 4 and 8). */
export const InactivityPopup = ({ onBack }: { onBack: () => void }) => {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog ref={ref} className="modal" aria-labelledby="inactive-title" onCancel={(e) => e.preventDefault()}>
      <div className="modal-body center">
        <h2 id="inactive-title" className="modal-title">
          {t('MsgLoggedOutInactivity')}
        </h2>
        <div className="modal-actions center">
          <button type="button" className="btn btn-primary" autoFocus onClick={onBack}>
            {t('CmdBackToLogin')}
          </button>
        </div>
      </div>
    </dialog>
  );
};
