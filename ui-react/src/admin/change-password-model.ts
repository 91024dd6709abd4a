import { signal } from '@preact/signals-react';
import type { MessageKey } from '../core.js';
import type { ApiClient, TextOutcome } from '../api/client.js';

/**
 * The Change Password dialog (spec 002 sections 2, 4, 5, 8) as a model: old password only when
 * asked for (the user's own account), new password and confirmation; states idle, sending,
 * success, error. A mismatch shows 'Passwords do not match.' and sends nothing; a failure shows
 * the server's text, else the status text, else 'Error'; success shows 'Password Changed' and
 * the dialog closes after 700 ms.
 */
export type PasswordDialogState = { _tag: 'Idle' } | { _tag: 'Sending' } | { _tag: 'Success' } | { _tag: 'Error'; message: string } | { _tag: 'Invalid'; problem: MessageKey };

/** Spec 002 section 9: 'Password dialog success close 700 ms'. */
export const PASSWORD_SUCCESS_CLOSE_MS = 700;

export type PasswordFields = { oldPassword: string; newPassword: string; confirmation: string };

/** Spec 002 section 5: a new password is required, both entries equal, the old one required only when shown. */
export const passwordFieldsProblem = (f: PasswordFields, askOld: boolean): MessageKey | null => {
  if (f.newPassword === '' || f.confirmation === '') return 'MsgPasswordsEmpty';
  if (f.newPassword !== f.confirmation) return 'MsgPasswordsDoNotMatch';
  if (askOld && f.oldPassword === '') return 'MsgRequired';
  return null;
};

/** Spec 002 section 8: the server text, else the status text, else 'Error' (null: use the catalogue's Error). */
export const failureText = (o: Pick<TextOutcome, 'text' | 'statusText'>): string | null => o.text.trim() || o.statusText.trim() || null;

export const changePasswordModel = (o: {
  api: Pick<ApiClient, 'changePassword'>;
  userId: string;
  /** the user's own account: the server checks the old password */
  askOld: boolean;
  onClose: () => void;
  /** the 700 ms wait (tests pass their own) */
  later?: (fn: () => void, ms: number) => void;
}) => {
  const later = o.later ?? ((fn, ms) => void setTimeout(fn, ms));
  const state = signal<PasswordDialogState>({ _tag: 'Idle' });
  const submit = async (f: PasswordFields): Promise<void> => {
    if (state.value._tag === 'Sending' || state.value._tag === 'Success') return;
    const problem = passwordFieldsProblem(f, o.askOld);
    if (problem) {
      state.value = { _tag: 'Invalid', problem };
      return;
    }
    state.value = { _tag: 'Sending' };
    let outcome: TextOutcome;
    try {
      outcome = await o.api.changePassword({ userId: o.userId, newPassword: f.newPassword, ...(o.askOld ? { oldPassword: f.oldPassword } : {}) });
    } catch (e) {
      outcome = { ok: false, status: 0, statusText: '', text: e instanceof Error ? e.message : '' };
    }
    // The text response OK means success (spec 002 section 7).
    if (outcome.ok && outcome.text === 'OK') {
      state.value = { _tag: 'Success' };
      later(o.onClose, PASSWORD_SUCCESS_CLOSE_MS);
    } else state.value = { _tag: 'Error', message: failureText(outcome) ?? '' };
  };
  return { state, askOld: o.askOld, submit };
};

export type ChangePasswordModel = ReturnType<typeof changePasswordModel>;
