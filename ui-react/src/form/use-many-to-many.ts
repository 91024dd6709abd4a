import { useEffect } from 'react';
import { useApi } from '../api/context.js';
import { caller } from '../state/session.js';
import { objectChangedEvent } from '../state/realtime.js';
import { linksParticipant, manyToManyModel, type ManyToMany, type ManyToManyModel } from './many-to-many.js';
import type { PanelContext } from './panel-context.js';

/**
 * One many-to-many state per form and panel, for the form's life: the panel of a tab that is not
 * shown is unmounted, and its pending links must survive the tab switch and still save with the
 * record (the same way as the line items, use-line-items.ts). The key is the form model's
 * `participate` (one per form; a record created opens a new form, hence a fresh state).
 */
type PanelState = { model: ManyToManyModel; loadedFor: string | null | undefined; registered: boolean };
const forms = new WeakMap<PanelContext['participate'], Map<string, PanelState>>();
/**
 * Pending links of a record just created whose link batch failed, by entity, new id and panel:
 * the form of the stored record (a new form) takes them over, so they are not lost.
 */
const carried = new Map<string, ManyToManyModel>();
const carryKey = (entity: string, id: string, panelName: string) => `${entity}/${id.toLowerCase()}/${panelName}`;

export const useManyToMany = (ctx: PanelContext, panelName: string, m: ManyToMany): ManyToManyModel => {
  const api = useApi();
  let byPanel = forms.get(ctx.participate);
  if (!byPanel) forms.set(ctx.participate, (byPanel = new Map()));
  let state = byPanel.get(panelName);
  if (!state) {
    const key = ctx.recordId ? carryKey(ctx.entity.logicalName, ctx.recordId, panelName) : undefined;
    const adopted = key ? carried.get(key) : undefined;
    if (key) carried.delete(key);
    state = { model: adopted ?? manyToManyModel({ api, m, caller: () => caller.value }), loadedFor: undefined, registered: false };
    byPanel.set(panelName, state);
  }
  const s = state;
  const { model } = s;

  // The pending links are written in afterSave, with the stored id (a new record's too);
  // registered once for the form's life (never unregistered by an unmount).
  useEffect(() => {
    if (s.registered) return;
    s.registered = true;
    ctx.participate(linksParticipant(model, (id) => carried.set(carryKey(ctx.entity.logicalName, id, panelName), model)));
  }, [s]);

  // The stored links, once per record (a remount keeps the pending ones).
  const parentId = ctx.recordId ?? null;
  useEffect(() => {
    if (s.loadedFor === parentId) return;
    s.loadedFor = parentId;
    void model.load(ctx.recordId);
  }, [s, parentId]);

  // A link row written elsewhere (another tab, another user) reloads the stored links.
  useEffect(() => {
    if (!ctx.recordId) return;
    const ev = objectChangedEvent(m.link);
    const reload = () => void model.load(ctx.recordId);
    window.addEventListener(ev, reload);
    return () => window.removeEventListener(ev, reload);
  }, [model, ctx.recordId]);

  return model;
};
