import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { useT } from '../i18n.js';
import { ask } from '../ui/dialogs.js';

/**
 * Navigation while dirty (spec 001 section 4): Save and Close, Discard unsaved changes, or
 * Continue editing. `proceeding` lets the form's own moves (after a save, a delete) through.
 */
export const NavigationGuard = ({ onSave, proceeding }: { onSave: () => Promise<boolean>; proceeding: React.RefObject<boolean> }) => {
  const t = useT();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => !proceeding.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void (async () => {
      const choice = await ask({
        title: t('MsgUnsavedChangesTitle'),
        message: t('MsgUnsavedChangesText'),
        cancelId: 'stay',
        buttons: [
          { id: 'stay', label: t('MsgContinueEditing'), kind: 'plain' },
          { id: 'discard', label: t('MsgDiscardChanges'), kind: 'danger' },
          { id: 'save', label: t('CmdSaveAndClose'), kind: 'primary' },
        ],
      });
      if (choice === 'discard') blocker.proceed?.();
      else if (choice === 'save') {
        proceeding.current = true;
        if (await onSave()) blocker.proceed?.();
        else {
          proceeding.current = false;
          blocker.reset?.();
        }
      } else blocker.reset?.();
    })();
  }, [blocker.state]);
  return null;
};
