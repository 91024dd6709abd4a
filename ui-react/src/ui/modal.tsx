import { useEffect, useRef, type ReactNode } from 'react';
import { useT } from '../i18n.js';
import { Icon } from './icons.js';

/** A modal dialog with the spec's dialog ids (createRecordDialog, LookupDialog...), native <dialog> for focus and Escape. */
export const Modal = ({ id, title, onClose, children, wide }: { id: string; title: string; onClose: () => void; children: ReactNode; wide?: boolean }) => {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      id={id}
      className={`modal ${wide ? 'modal-wide' : ''}`}
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div className="modal-head">
        <h2 id={`${id}-title`} className="modal-title">
          {title}
        </h2>
        <button type="button" className="icon-btn" aria-label={t('CmdClose')} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <div className="modal-body">{children}</div>
    </dialog>
  );
};
