import { useEffect } from 'react';
import type { FieldValue } from '../core.js';
import { roundDecimal } from '../core.js';
import { useApi } from '../api/context.js';
import { t } from '../i18n.js';
import type { PanelContext } from '../form/panel-context.js';
import { lineItemsModel, type LineItemsModel, type LineItemsParams } from './line-items-model.js';

/**
 * One line-item state per form and panel, for the form's life: a Custom panel on a tab that is not
 * shown is unmounted, and its unsaved lines must survive the tab switch and still save with the
 * record. The key is the form model's `participate` (one per form; a new record saved for the
 * first time opens a new form, hence a fresh state).
 */
type PanelState = {
  model: LineItemsModel;
  /** the parent's stored total (what the record is sent with) */
  base: number | null;
  /** what this panel put in the total field, to take it back when the lines are clean again */
  shown: number | undefined;
  /** the parent id whose lines were loaded (null: a new record) */
  loadedFor: string | null | undefined;
  registered: boolean;
};
const forms = new WeakMap<PanelContext['participate'], Map<string, PanelState>>();

const numberOr = (v: FieldValue | undefined): number | null => {
  if (typeof v === 'number') return v;
  if (v === null || v === undefined || v === '' || typeof v === 'object') return null;
  return Number.isFinite(Number(v)) ? Number(v) : null;
};

export const useLineItems = (ctx: PanelContext, panelName: string, params: LineItemsParams): LineItemsModel => {
  const api = useApi();
  let byPanel = forms.get(ctx.participate);
  if (!byPanel) forms.set(ctx.participate, (byPanel = new Map()));
  let state = byPanel.get(panelName);
  if (!state) {
    state = {
      model: lineItemsModel({ api, params, parentEntity: ctx.entity.logicalName }),
      base: null,
      shown: undefined,
      loadedFor: undefined,
      registered: false,
    };
    byPanel.set(panelName, state);
  }
  const s = state;
  const { model } = s;

  // Saves with the record, registered once for the form's life (never unregistered by an unmount).
  // The record is sent with its stored total: the server's line-item rule moves the total with each
  // line inside the line's own transaction, so sending the new total too would count the lines
  // twice. Then the changed lines in one executemultiple, once the parent's id is known.
  useEffect(() => {
    if (s.registered) return;
    s.registered = true;
    ctx.participate({
      dirty: model.dirty,
      beforeSave: async () => {
        if (!model.dirty.value) return {};
        if (model.problem() === 'noProduct') return { veto: t('LineItemsNoProduct') };
        return { patch: { [params.totalField]: s.base } };
      },
      afterSave: async (id) => {
        if (!model.dirty.value) return;
        await model.save(id);
        // The form reads the server's total next: it is the new stored total.
        s.shown = undefined;
      },
    });
  }, [s]);

  // The lines of the stored record, once (a remount keeps the unsaved lines).
  const parentId = ctx.recordId ?? null;
  useEffect(() => {
    if (s.loadedFor === parentId) return;
    s.loadedFor = parentId;
    void model.load(ctx.recordId);
  }, [s, parentId]);

  // The parent's total as it will be once saved: the stored total moved by the unsaved lines.
  const total = numberOr(ctx.record[params.totalField]);
  const dirty = model.dirty.value;
  const delta = model.delta.value;
  useEffect(() => {
    if (!dirty) {
      if (s.shown !== undefined && total === s.shown) ctx.setValue(params.totalField, s.base);
      else s.base = total;
      s.shown = undefined;
      return;
    }
    const want = roundDecimal((s.base ?? 0) + delta, 2);
    s.shown = want;
    if (total !== want) ctx.setValue(params.totalField, want);
  }, [s, dirty, delta, total]);

  return model;
};
