import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { canAccess, REPORT_TEMPLATE_ENTITY } from '@tessera/core/internal';
import { useApi } from '../api/context.js';
import type { ApiClient } from '../api/client.js';
import { useT } from '../i18n.js';
import { caller } from '../state/session.js';
import { Icon } from '../ui/icons.js';
import type { RecordFormModel } from '../form/record-form-model.js';
import { openPrintDialog } from './print-dialog.js';
import { templatesOf } from './print-model.js';

/**
 * Whether an entity has report templates, asked once per entity in a session (the form would
 * otherwise ask on every open); the template editor forgets an entity when it saves.
 */
const hasTemplates = signal<ReadonlyMap<string, boolean>>(new Map());
const asking = new Set<string>();
export const forgetTemplates = (entity?: string): void => {
  const next = new Map(hasTemplates.value);
  if (entity === undefined) next.clear();
  else next.delete(entity);
  hasTemplates.value = next;
};
const ask = (api: ApiClient, entity: string): void => {
  if (hasTemplates.value.has(entity) || asking.has(entity)) return;
  asking.add(entity);
  templatesOf(api, entity)
    .then((list) => (hasTemplates.value = new Map(hasTemplates.value).set(entity, list.length > 0)))
    .catch(() => undefined)
    .finally(() => asking.delete(entity));
};

/** The form's Print command (issue 20): on a stored record whose entity has report templates the user may read. */
export const DocumentCommands = ({ model }: { model: RecordFormModel }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const entity = model.entity.logicalName;
  const user = caller.value;
  const eligible = !model.isNew && entity !== REPORT_TEMPLATE_ENTITY && user !== null && canAccess(user, 'read', REPORT_TEMPLATE_ENTITY, {});
  useEffect(() => {
    if (eligible) ask(api, entity);
  }, [api, entity, eligible]);
  if (!eligible || model.status.value !== 'ready' || hasTemplates.value.get(entity) !== true) return null;
  return (
    <button type="button" className="btn btn-plain" onClick={() => openPrintDialog(entity, model.id, api)}>
      <Icon name="receipt" /> {t('DocPrint')}
    </button>
  );
};
