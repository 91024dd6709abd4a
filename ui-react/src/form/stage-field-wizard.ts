import type { Panel } from '../core.js';
import type { PanelContext } from './panel-context.js';

/**
 * The wizard's Continue (spec 001 section 4 "Wizard": "Moving to a later step saves the record
 * with process_stage_index set and may run a next-step command"). The save is the form's
 * (PanelContext.onWizardStep: record-form.tsx saves with process_stage_index = the new step);
 * the next-step command is the panel's wizardNextCommand, run by the scripts runner of issue 16
 * through the hook PanelContext.runWizardNextCommand.
 */

/** The step the wizard moves to and the command it runs. */
export type WizardNextStep = {
  /** the Tabs panel in Wizard mode */
  wizard: Panel;
  /** the step being left and the one moved to (0-based; `to` is the new process_stage_index) */
  from: number;
  to: number;
  /** the script's name (a metadata object of kind script) */
  command: string;
};

/**
 * The HOOK where the wizardNextCommand script runs (issue 16 fills it: the form's scripts runner).
 * Called after the step's save succeeded; answers false to stay on the step (the script failed
 * or refused), true to move on.
 */
export type WizardNextCommandRunner = (step: WizardNextStep) => Promise<boolean>;

/** The next-step command when leaving step `from`: the step panel's own wizardNextCommand, else the wizard's. */
export const wizardNextCommandOf = (wizard: Panel, from: number): string | undefined => {
  const own = wizard.panels?.[from]?.wizardNextCommand?.trim();
  return own || wizard.wizardNextCommand?.trim() || undefined;
};

/** Continue: save the record at the next step, then run the next-step command; true when the wizard moves on. */
export const continueWizard = async (
  wizard: Panel,
  from: number,
  ctx: Pick<PanelContext, 'onWizardStep' | 'runWizardNextCommand'>,
): Promise<boolean> => {
  const to = from + 1;
  if (ctx.onWizardStep && !(await ctx.onWizardStep(wizard, to))) return false;
  const command = wizardNextCommandOf(wizard, from);
  if (!command || !ctx.runWizardNextCommand) return true;
  return ctx.runWizardNextCommand({ wizard, from, to, command });
};
