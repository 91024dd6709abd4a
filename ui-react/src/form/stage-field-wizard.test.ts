import { describe, expect, it } from 'vitest';
import type { Panel } from '../core.js';
import { continueWizard, wizardNextCommandOf, type WizardNextStep } from './stage-field-wizard.js';

const wizard: Panel = {
  name: 'process',
  type: 'Tabs',
  mode: 'Wizard',
  wizardNextCommand: 'opportunity.next',
  panels: [
    { name: 'qualify', type: 'Fields', wizardNextCommand: 'opportunity.qualified' },
    { name: 'develop', type: 'Fields' },
    { name: 'close', type: 'Fields' },
  ],
};

describe('wizard Continue (spec 001 section 4 "Wizard")', () => {
  it("the next-step command is the step's own wizardNextCommand, else the wizard's", () => {
    expect(wizardNextCommandOf(wizard, 0)).toBe('opportunity.qualified');
    expect(wizardNextCommandOf(wizard, 1)).toBe('opportunity.next');
    expect(wizardNextCommandOf({ ...wizard, wizardNextCommand: undefined }, 1)).toBeUndefined();
  });

  it('"Moving to a later step saves the record with process_stage_index set, and may run a next-step command": save first, then the command', async () => {
    const seen: string[] = [];
    const moved = await continueWizard(wizard, 1, {
      onWizardStep: async (_p, index) => {
        seen.push(`save ${index}`);
        return true;
      },
      runWizardNextCommand: async (s: WizardNextStep) => {
        seen.push(`run ${s.command} ${s.from}->${s.to}`);
        return true;
      },
    });
    expect(moved).toBe(true);
    expect(seen).toEqual(['save 2', 'run opportunity.next 1->2']);
  });

  it('a failed save stays on the step and runs no command; a refusing command stays too', async () => {
    let ran = false;
    expect(
      await continueWizard(wizard, 0, {
        onWizardStep: async () => false,
        runWizardNextCommand: async () => (ran = true),
      }),
    ).toBe(false);
    expect(ran).toBe(false);
    expect(
      await continueWizard(wizard, 0, { onWizardStep: async () => true, runWizardNextCommand: async () => false }),
    ).toBe(false);
    // no runner yet (before issue 16's scripts): the wizard moves on after the save
    expect(await continueWizard(wizard, 0, { onWizardStep: async () => true })).toBe(true);
  });
});
