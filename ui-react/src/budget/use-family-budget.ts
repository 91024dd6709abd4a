import { useEffect } from 'react';
import { optionsOf } from '../core.js';
import { useApi } from '../api/context.js';
import { t } from '../i18n.js';
import { entityOf } from '../state/session.js';
import type { PanelContext } from '../form/panel-context.js';
import { familyBudgetModel, type FamilyBudgetModel } from './family-budget-model.js';

/**
 * One budget state per form and panel, for the form's life: the panel sits on a tab, a tab that is
 * not shown is unmounted, and the unsaved rows must survive the tab switch and still save with the
 * family (the same keying as the line-item panel: the form model's `participate`, one per form; a
 * new family saved for the first time opens a new form, hence a fresh state).
 */
type PanelState = { model: FamilyBudgetModel; loadedFor: string | null | undefined; registered: boolean };
const forms = new WeakMap<PanelContext['participate'], Map<string, PanelState>>();

/** Today in the user's calendar: the allowances are those of today. */
const today = () => {
  const d = new Date();
  return { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate() };
};

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const useFamilyBudget = (ctx: PanelContext, panelName: string): FamilyBudgetModel => {
  const api = useApi();
  let byPanel = forms.get(ctx.participate);
  if (!byPanel) forms.set(ctx.participate, (byPanel = new Map()));
  let state = byPanel.get(panelName);
  if (!state) {
    // The label of fi_employment.type's options (FamilyLeave): the pack's option set.
    const employment = entityOf('fi_employment')?.properties.find((p) => p.logicalName === 'type');
    const options = employment ? optionsOf(employment) : [];
    state = {
      model: familyBudgetModel({ api, today, employmentTypeLabel: options.length ? (v) => options.find((o) => o.value === v)?.label ?? String(v) : undefined }),
      loadedFor: undefined,
      registered: false,
    };
    byPanel.set(panelName, state);
  }
  const s = state;
  const { model } = s;

  // Saves with the family, registered once for the form's life (never unregistered by an unmount):
  // a row that cannot be saved stops the save with its number; the rows go once the family's id is known.
  useEffect(() => {
    if (s.registered) return;
    s.registered = true;
    ctx.participate({
      dirty: model.dirty,
      beforeSave: async (): Promise<{ veto: string } | { patch?: undefined }> => {
        const n = model.firstInvalidRow();
        return n > 0 ? { veto: t('BudgetLineInvalid', { n }) } : {};
      },
      afterSave: async (id) => {
        try {
          await model.flush(id);
          s.loadedFor = id;
        } catch (e) {
          throw new Error(t('BudgetSaveFailed', { error: errorText(e) }));
        }
      },
    });
  }, [ctx, model, s]);

  // The family's lines, read once per stored id (a tab switch back keeps the edited rows).
  const id = ctx.recordId ?? null;
  useEffect(() => {
    if (s.loadedFor === id) return;
    s.loadedFor = id;
    void model.load(id ?? undefined);
  }, [id, model, s]);
  return model;
};
