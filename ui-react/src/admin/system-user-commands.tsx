import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { SYSTEM_USER_ENTITY } from '../core.js';
import { useApi } from '../api/context.js';
import type { ApiClient } from '../api/client.js';
import { useT, type T } from '../i18n.js';
import { session } from '../state/session.js';
import { alertDialog, toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import type { RecordFormModel } from '../form/record-form-model.js';
import { openChangePasswordDialog } from './change-password-dialog.js';
import { failureText } from './change-password-model.js';
import { systemUserCommandsFor } from './system-user-rules.js';

/**
 * The commands of a systemuser record (spec 002 sections 2 and 6): Change Password (on one's own
 * record with the old password; administrators on anybody's without it) and Send Invite
 * (administrators, on another user's record: POST /api/getmagic with reason INVITE).
 */
/** Sends the invitation; 'Invite Sent' on success, else the server's text (or the status text, or Error) in an alert. */
export const sendInvite = async (api: Pick<ApiClient, 'invite'>, t: T, email: string, organization: string): Promise<boolean> => {
  if (!email) {
    await alertDialog(t('MsgInviteNoEmail'), t('CmdOk'));
    return false;
  }
  try {
    const r = await api.invite({ username: email, organization });
    if (r.ok) {
      toast(t('MsgInviteSent'));
      return true;
    }
    await alertDialog(failureText(r) ?? t('MsgError'), t('CmdOk'));
  } catch (e) {
    await alertDialog(e instanceof Error && e.message ? e.message : t('MsgError'), t('CmdOk'));
  }
  return false;
};

export const SystemUserCommands = ({ model }: { model: RecordFormModel }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const [inviting, setInviting] = useState(false);
  const s = session.value;
  if (!s || model.entity.logicalName !== SYSTEM_USER_ENTITY || model.isNew || model.status.value !== 'ready') return null;
  const can = systemUserCommandsFor(s.caller, model.id);
  const email = String(model.loaded.value.emailaddress ?? '');
  return (
    <>
      {can.changePassword && (
        <button type="button" className="btn btn-plain" onClick={() => openChangePasswordDialog({ userId: model.id, askOld: can.askOld }, api)}>
          <Icon name="settings" /> {t('CmdChangePasswordDialog')}
        </button>
      )}
      {can.invite && (
        <button
          type="button"
          className="btn btn-plain"
          disabled={inviting}
          aria-busy={inviting}
          onClick={async () => {
            setInviting(true);
            await sendInvite(api, t, email, s.context.orgName);
            setInviting(false);
          }}
        >
          <Icon name="external" /> {t('CmdSendInvite')}
        </button>
      )}
    </>
  );
};
