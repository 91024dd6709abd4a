import { useSignals } from '@preact/signals-react/runtime';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { caller, refreshSession, session } from '../state/session.js';
import { toast } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { mayAccessSome, type Entity, type ListView } from '../core.js';
import { storedViewRecord, viewBodyWithQuery, viewQueryRequest, viewWrite } from './view-query.js';

/**
 * Setup Query on a list (issue 15): for users who may change views (update on inu_view, as
 * customize mode), the list's view query opens in the Setup Query dialog; Save writes the view's
 * inu_view record (a generated view becomes a stored one) and the metadata reloads.
 */
export const ViewQueryCommand = ({ entity, viewName, viewLabel, body, onSaved }: { entity: Entity; viewName: string; viewLabel: string; body: ListView; onSaved?: () => void }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const user = caller.value;
  const s = session.value;
  if (!user || !s) return null;
  const record = storedViewRecord(s.context.gui ?? [], entity.logicalName, viewName);
  if (!mayAccessSome(user, record ? 'update' : 'create', 'inu_view')) return null;

  const open = async () => {
    const { openSetupQueryDialog } = await import('./setup-query-dialog.js');
    const saved = await openSetupQueryDialog({
      title: `${t('SqTitle')}: ${viewLabel}`,
      initial: viewQueryRequest(body),
      entities: s.entities,
      entity: entity.logicalName,
      placeholders: { userid: user.userId },
      onSave: async (request) => {
        const write = viewWrite(record, entity.logicalName, viewName, viewBodyWithQuery(body, request));
        await api.update(write.operation, 'inu_view', write.fields);
        return null;
      },
    });
    if (!saved) return;
    toast(t('SqViewSaved', { view: viewLabel }), 'info');
    await refreshSession(api).catch(() => undefined);
    onSaved?.();
  };

  return (
    <button type="button" className="btn btn-plain" onClick={() => void open()} title={t('SqTitle')}>
      <Icon name="filter" /> {t('SqTitle')}
    </button>
  );
};
