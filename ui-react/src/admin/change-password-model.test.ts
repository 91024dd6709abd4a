import { describe, expect, it } from 'vitest';
import { packMask, type Caller } from '../core.js';
import type { TextOutcome } from '../api/client.js';
import { changePasswordModel, failureText, PASSWORD_SUCCESS_CLOSE_MS, passwordFieldsProblem } from './change-password-model.js';
import { systemUserCommandsFor } from './system-user-rules.js';

const ME = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OTHER = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

const setup = (answer: TextOutcome | Error, askOld = true) => {
  const sent: Array<Record<string, string | undefined>> = [];
  const timers: Array<{ ms: number; fn: () => void }> = [];
  let closed = 0;
  const model = changePasswordModel({
    api: {
      changePassword: async (f) => {
        sent.push(f);
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
    userId: ME,
    askOld,
    onClose: () => closed++,
    later: (fn, ms) => timers.push({ fn, ms }),
  });
  return { model, sent, timers, closed: () => closed };
};
const ok: TextOutcome = { ok: true, status: 200, statusText: 'OK', text: 'OK' };

describe('Change Password (spec 002 sections 4, 5, 8)', () => {
  it("'Passwords do not match.' when the entries differ, and nothing is sent", async () => {
    const { model, sent } = setup(ok);
    await model.submit({ oldPassword: 'old', newPassword: 'one-password', confirmation: 'other-password' });
    expect(model.state.value).toEqual({ _tag: 'Invalid', problem: 'MsgPasswordsDoNotMatch' });
    expect(sent).toHaveLength(0);
  });

  it('a new password is required; the old one only when it is asked for', () => {
    expect(passwordFieldsProblem({ oldPassword: 'x', newPassword: '', confirmation: '' }, true)).toBe('MsgPasswordsEmpty');
    expect(passwordFieldsProblem({ oldPassword: '', newPassword: 'a-password', confirmation: 'a-password' }, true)).toBe('MsgRequired');
    expect(passwordFieldsProblem({ oldPassword: '', newPassword: 'a-password', confirmation: 'a-password' }, false)).toBeNull();
  });

  it('success: sending, then success; the old password goes only when asked; the dialog closes after 700 ms', async () => {
    const own = setup(ok, true);
    const seen: string[] = [];
    own.model.state.subscribe((s) => seen.push(s._tag));
    await own.model.submit({ oldPassword: 'old-password', newPassword: 'new-password-1', confirmation: 'new-password-1' });
    expect(seen).toEqual(['Idle', 'Sending', 'Success']);
    expect(own.sent).toEqual([{ userId: ME, newPassword: 'new-password-1', oldPassword: 'old-password' }]);
    expect(own.timers.map((x) => x.ms)).toEqual([PASSWORD_SUCCESS_CLOSE_MS]);
    expect(PASSWORD_SUCCESS_CLOSE_MS).toBe(700);
    expect(own.closed()).toBe(0);
    own.timers[0].fn();
    expect(own.closed()).toBe(1);

    const admin = setup(ok, false);
    await admin.model.submit({ oldPassword: 'typed anyway', newPassword: 'new-password-1', confirmation: 'new-password-1' });
    expect(admin.sent).toEqual([{ userId: ME, newPassword: 'new-password-1' }]);
  });

  it('failure: the server text, else the status text, else Error (the catalogue text)', async () => {
    const server = setup({ ok: false, status: 400, statusText: 'Bad Request', text: 'ERR_INPUT: The old password is not right' });
    await server.model.submit({ oldPassword: 'wrong', newPassword: 'new-password-1', confirmation: 'new-password-1' });
    expect(server.model.state.value).toEqual({ _tag: 'Error', message: 'ERR_INPUT: The old password is not right' });
    expect(server.timers).toHaveLength(0);
    expect(failureText({ text: '', statusText: 'Bad Gateway' })).toBe('Bad Gateway');
    expect(failureText({ text: ' ', statusText: '' })).toBeNull();
    const network = setup(new Error(''));
    await network.model.submit({ oldPassword: 'x', newPassword: 'new-password-1', confirmation: 'new-password-1' });
    expect(network.model.state.value).toEqual({ _tag: 'Error', message: '' });
  });
});

describe('systemuser record commands (spec 002 section 6)', () => {
  const caller = (admin: boolean): Caller => ({
    userId: ME,
    teams: [],
    permissions: { permissions: { systemuser: packMask({ create: admin ? 3 : 0, read: 3, update: admin ? 3 : 1, delete: 0 }) }, apps: [], owners: [], needsTeams: false },
  });
  it('own record: Change Password with the old password, no invite; administrators: both on others, without the old password', () => {
    expect(systemUserCommandsFor(caller(false), ME)).toEqual({ changePassword: true, askOld: true, invite: false });
    expect(systemUserCommandsFor(caller(false), OTHER)).toEqual({ changePassword: false, askOld: false, invite: false });
    expect(systemUserCommandsFor(caller(true), OTHER)).toEqual({ changePassword: true, askOld: false, invite: true });
    expect(systemUserCommandsFor(caller(true), ME)).toEqual({ changePassword: true, askOld: true, invite: false });
  });
});
