import type { EntityRecord, Form, ScriptFailure } from '../core.js';
import { formEvents } from '../core.js';
import { runScript, type SandboxFactory, type ScriptHost } from './sandbox-runner.js';

/**
 * A form's event scripts (spec 001 section 3: change, validate, postsave; by default
 * `{entity}.change`, `{entity}.validate`, `{entity}.postsave`) as the record-form model sees
 * them: a function of the event, the record and the changed fields. A form without the script
 * answers None at once, without starting a worker.
 */
export type FormEvent = 'change' | 'validate' | 'postsave';

export type FormScriptAnswer =
  | { _tag: 'None' }
  | { _tag: 'Done'; patch: EntityRecord }
  | { _tag: 'Vetoed'; message: string; patch: EntityRecord }
  | { _tag: 'Failed'; failure: ScriptFailure };

export type FormScriptRunner = (event: FormEvent, record: EntityRecord, changed: readonly string[]) => Promise<FormScriptAnswer>;

export type FormScriptOptions = {
  entity: string;
  form: Pick<Form, 'events'>;
  /** a script's source by name (scriptSource over the session's metadata objects) */
  sourceOf: (name: string) => string | undefined;
  host: ScriptHost;
  /** every failure, once: the screen says it and reports it to /api/apperror */
  onFailure?: (failure: ScriptFailure) => void;
  sandbox?: SandboxFactory;
  timeLimitMs?: number;
};

export const formScriptRunner = ({ entity, form, sourceOf, host, onFailure, sandbox, timeLimitMs }: FormScriptOptions): FormScriptRunner => {
  const names = formEvents(entity, form);
  return async (event, record, changed) => {
    const name = names[event];
    const source = sourceOf(name);
    if (source === undefined) return { _tag: 'None' };
    const r = await runScript({ name, source, event, entity, record, changed, selected: [record], timeLimitMs }, host, sandbox);
    switch (r._tag) {
      case 'Completed':
        return { _tag: 'Done', patch: r.patch };
      case 'Vetoed':
        return r;
      default:
        onFailure?.(r);
        return { _tag: 'Failed', failure: r };
    }
  };
};
