import { useSignals } from '@preact/signals-react/runtime';
import { useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import type { Command, DashboardObject, Entity, EntityRecord, FetchFragment, Form, QuickFilterSelection, ScriptEvent, ScriptFailure } from '../core.js';
import type { ObjectState } from '../dashboard/dashboard-model.js';
import { loaderState } from './loader-script.js';
import { fragmentOfResult } from './fetch-scripts.js';
import { checkPermissionString, commandPermission, commandScriptName, customCommands, scriptSource } from '../core.js';
import type { ApiClient } from '../api/client.js';
import { useApi } from '../api/context.js';
import { t as translate, type T } from '../i18n.js';
import { reportError } from '../state/app-errors.js';
import { caller, guiObjects } from '../state/session.js';
import { alertDialog, confirmDialog, toast } from '../ui/dialogs.js';
import type { WizardNextCommandRunner } from '../form/stage-field-wizard.js';
import { formScriptRunner, type FormScriptRunner } from './form-scripts.js';
import { runScript, type ScriptHost, type ScriptResult } from './sandbox-runner.js';
import { scriptHost } from './script-host.js';

/**
 * The screens' side of scripts (issue 16): the host API with the application's dialogs and
 * router, how a failure is said (an alert naming the script and its line) and reported to
 * /api/apperror, and the custom commands of forms and lists.
 */

/** A script's source by name among the session's metadata objects of kind script. */
export const sourceOf = (name: string): string | undefined => scriptSource(guiObjects('script'), name);

/** The user's words for a failure: the script's name, and the line when known. */
export const scriptFailureText = (t: T, f: ScriptFailure): string => {
  switch (f._tag) {
    case 'ScriptTimedOut':
      return t('ScriptTimedOut', { name: f.script, seconds: f.seconds });
    case 'ScriptThrew':
      return f.line !== undefined ? t('ScriptFailedAtLine', { name: f.script, line: f.line, message: f.message }) : t('ScriptFailed', { name: f.script, message: f.message });
    case 'ScriptProtocol':
      return t('ScriptFailed', { name: f.script, message: f.message });
  }
};

let alerting = false;
/** Says a failure (one alert at a time: a change script failing on every key is said once) and reports it. */
export const sayScriptFailure = (api: ApiClient, f: ScriptFailure): void => {
  const text = scriptFailureText(translate, f);
  reportError(api, new Error(text), `script ${f.script}`);
  if (alerting) return;
  alerting = true;
  void alertDialog(text, translate('CmdOk'), translate('ScriptErrorTitle')).finally(() => {
    alerting = false;
  });
};

/** The host API of this page: the user's own client, the application's dialogs, the router. */
export const useScriptHost = (): ScriptHost => {
  const api = useApi();
  const navigate = useNavigate();
  return useMemo(
    () =>
      scriptHost({
        api,
        alert: (text) => alertDialog(text, translate('CmdOk')),
        confirm: (text) => confirmDialog(text, translate('CmdOk'), translate('CmdCancel')),
        toast,
        navigate: (path) => void navigate(path),
      }),
    [api, navigate],
  );
};

/**
 * The form's event scripts for the record-form model. Stable for an entity and form (the model
 * is made once per record); the host of the latest render answers the calls.
 */
export const useFormScripts = (entity: Entity, form: Form): FormScriptRunner => {
  const api = useApi();
  const host = useScriptHost();
  const latest = useRef(host);
  latest.current = host;
  return useMemo(() => {
    const viaLatest = Object.fromEntries(
      (Object.keys(host) as Array<keyof ScriptHost>).map((k) => [k, (...args: unknown[]) => (latest.current[k] as (...a: unknown[]) => Promise<unknown>)(...args)]),
    ) as unknown as ScriptHost;
    return formScriptRunner({ entity: entity.logicalName, form, sourceOf, host: viaLatest, onFailure: (f) => sayScriptFailure(api, f) });
    // the host is read through `latest`, so the runner (and the model holding it) stays the same
  }, [api, entity.logicalName, form]);
};

/** Runs a named script of a hook (a command, a quick filter's fetch, a dashboard's loader, the wizard's next step); failures are said. */
export const runNamedScript = async (
  api: ApiClient,
  host: ScriptHost,
  run: { name: string; event: ScriptEvent; entity: string; record?: EntityRecord; selected?: readonly EntityRecord[]; params?: Record<string, unknown> },
): Promise<ScriptResult | undefined> => {
  const source = sourceOf(run.name);
  if (source === undefined) return undefined;
  const r = await runScript({ ...run, source }, host);
  if (r._tag === 'ScriptThrew' || r._tag === 'ScriptTimedOut' || r._tag === 'ScriptProtocol') sayScriptFailure(api, r);
  return r;
};

/** The custom commands the user may run here: kind custom, permitted, and with a script. */
export const runnableCommands = (entity: string, commands: readonly Command[] | undefined, record?: EntityRecord): Command[] =>
  customCommands(commands).filter(
    (c) => sourceOf(commandScriptName(entity, c)) !== undefined && (!caller.value || checkPermissionString(caller.value, commandPermission({ name: c.name, permissions: c.permissions }, entity), record)),
  );

/**
 * Custom command buttons (spec 001 section 3, kind custom): each runs `{entity}.{name}` with the
 * selected records. `onDone` gets the fields the script set (a form takes them) after a run.
 */
export const ScriptCommands = ({
  entity,
  commands,
  selected,
  record,
  disabled,
  onDone,
}: {
  entity: string;
  commands: readonly Command[] | undefined;
  selected: () => readonly EntityRecord[];
  record?: EntityRecord;
  disabled?: boolean;
  onDone?: (r: ScriptResult) => void;
}) => {
  useSignals();
  const api = useApi();
  const host = useScriptHost();
  const runnable = runnableCommands(entity, commands, record);
  if (runnable.length === 0) return null;
  return (
    <>
      {runnable.map((c) => (
        <button
          key={c.name}
          type="button"
          className="btn btn-plain script-command"
          disabled={disabled}
          data-command={c.name}
          onClick={async () => {
            const chosen = selected();
            const r = await runNamedScript(api, host, { name: commandScriptName(entity, c), event: 'command', entity, record: chosen[0] ?? record, selected: chosen, params: c.option ? { option: c.option } : {} });
            if (r?._tag === 'Vetoed') toast(r.message, 'info');
            if (r) onDone?.(r);
          }}
        >
          {c.label ?? c.name}
        </button>
      ))}
    </>
  );
};

/**
 * The wizard's next-step command (spec 001 section 4 "Wizard"; the hook of stage-field-wizard.ts):
 * after the step's save, the named script runs with the record and `{ step }` (the new stage
 * index). Its fields go into the form; a veto is said and keeps the wizard on its step, as does a
 * failure. A name without a script lets the wizard move on.
 */
export const useWizardNextCommand = (entity: string, form: { edited: { value: EntityRecord }; applyPatch: (patch: EntityRecord) => void }): WizardNextCommandRunner => {
  const api = useApi();
  const host = useScriptHost();
  return async ({ command, to }) => {
    const record = form.edited.value;
    const r = await runNamedScript(api, host, { name: command, event: 'wizardNext', entity, record, selected: [record], params: { step: to } });
    if (!r) return true;
    if (r._tag === 'Completed') {
      form.applyPatch(r.patch);
      return true;
    }
    if (r._tag === 'Vetoed') await alertDialog(r.message, translate('CmdOk'));
    return false;
  };
};

/**
 * A dashboard's loaderScript runner (dashboard-model.ts `loader`): the script gets the dashboard's
 * selections in `context.params.selections`; its answer becomes the object's state
 * (loader-script.ts). A name without a script shows 'No Object:{name}'.
 */
export const useDashboardLoader = (): ((o: DashboardObject, selections: Record<string, QuickFilterSelection>) => Promise<ObjectState>) => {
  const api = useApi();
  const host = useScriptHost();
  const latest = useRef(host);
  latest.current = host;
  return useMemo(
    () => async (o, selections) => {
      const name = o.loaderScript ?? '';
      const source = sourceOf(name);
      if (source === undefined) return { _tag: 'Failed', message: translate('MsgNoObject', { name }) };
      const r = await runScript({ name, source, event: 'loader', entity: o.objectname ?? '', params: { selections } }, latest.current);
      if (r._tag === 'ScriptThrew' || r._tag === 'ScriptTimedOut' || r._tag === 'ScriptProtocol') reportError(api, new Error(scriptFailureText(translate, r)), `script ${name}`);
      return loaderState(r, (f) => (f._tag === 'Vetoed' ? f.message : scriptFailureText(translate, f)));
    },
    [api],
  );
};

/**
 * The runner of quick filters' script fragments (fetch-scripts.ts): `{ script: name }` in a
 * customFetch or extraFetch runs that script once; its answer is the fragment.
 */
export const useFetchScriptRunner = (entity: string): ((name: string, event: 'customFetch' | 'extraFetch') => Promise<FetchFragment>) => {
  const api = useApi();
  const host = useScriptHost();
  const latest = useRef(host);
  latest.current = host;
  return useMemo(
    () => async (name, event) => {
      const r = await runNamedScript(api, latest.current, { name, event, entity });
      return r ? fragmentOfResult(r) : {};
    },
    [api, entity],
  );
};
