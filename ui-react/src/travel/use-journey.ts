import { useEffect } from 'react';
import { checkPermissionString } from '../core.js';
import { useApi } from '../api/context.js';
import { caller } from '../state/session.js';
import type { PanelContext } from '../form/panel-context.js';
import { journeyModel, type JourneyModel } from './journey-model.js';

/**
 * One journey model per form: the journey and journeydietary panels are two Custom panels of the
 * same report and must edit the same legs. The key is the form model's `participate` (one per
 * form; a new record saved for the first time opens a new form, hence a fresh model).
 */
const models = new WeakMap<PanelContext['participate'], JourneyModel>();
const registered = new WeakSet<JourneyModel>();

export const useJourney = (ctx: PanelContext): JourneyModel => {
  const api = useApi();
  let model = models.get(ctx.participate);
  if (!model) {
    model = journeyModel({
      api,
      record: ctx.record,
      isNew: ctx.isNew,
      mayCreateAddress: () => !!caller.value && checkPermissionString(caller.value, 'route_address;0'),
    });
    models.set(ctx.participate, model);
  }
  const m = model;
  useEffect(() => {
    m.bindFields((fields) => {
      for (const [k, v] of Object.entries(fields)) if (ctx.entity.properties.some((p) => p.logicalName === k)) ctx.setValue(k, v ?? null);
    });
    // Registered once for the form's life, not per mount: a panel on a hidden tab is unmounted,
    // and its changes must still be saved with the record.
    if (registered.has(m)) return;
    registered.add(m);
    ctx.participate({
      beforeSave: async () => ({ patch: m.fields() }),
      afterSave: async () => m.saved(),
      dirty: m.dirty,
    });
  }, [m]);
  // The form reloaded the record with legs other than ours (a merge of another user's save): read them.
  const stored = ctx.record.legs_json;
  useEffect(() => {
    if (typeof stored === 'string' && stored !== '' && stored !== JSON.stringify(m.legs.value) && !m.dirty.value) m.load(ctx.record);
  }, [stored]);
  // The owner's home location, the report month's window (spec 002 sections 2 and 4).
  const owner = ctx.record.ownerid;
  useEffect(() => void m.ownerChanged(owner), [typeof owner === 'object' && owner ? owner.id : owner]);
  const reportDate = ctx.record.report_date;
  useEffect(() => m.reportDateChanged(reportDate), [reportDate]);
  return m;
};
