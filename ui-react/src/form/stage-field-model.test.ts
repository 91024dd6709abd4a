import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RichOption } from '../core.js';
import { currentStep, selectStep, stageSteps, stageValue, stepLabel } from './stage-field-model.js';

const status: RichOption[] = [
  { value: 1, label: 'Unscheduled' },
  { value: 2, label: 'Scheduled' },
  { value: 3, label: 'In Progress' },
  { value: 4, label: 'Completed' },
  { value: 5, label: 'Canceled' },
];
const grouped = { steps: [[1], [2], [3], [4, 5]] };

describe('stage field (spec 001 section 4 "Stage field")', () => {
  it('each option is a step when no steps are configured', () => {
    expect(stageSteps(status).map((s) => s.options.map((o) => o.value))).toEqual([[1], [2], [3], [4], [5]]);
  });

  it('"Steps may group several values with a choice menu": a grouped step opens a menu, a single one sets its value', () => {
    const steps = stageSteps(status, grouped);
    expect(steps.map((s) => s.options.map((o) => o.value))).toEqual([[1], [2], [3], [4, 5]]);
    expect(selectStep(steps[1]!)).toEqual({ _tag: 'Set', value: 2 });
    expect(selectStep(steps[3]!)).toEqual({ _tag: 'Menu' });
    // also written as { values }
    expect(stageSteps(status, { steps: [{ values: [4, 5] }] }).map((s) => s.options.length)).toEqual([2, 1, 1, 1]);
  });

  it('"Selecting a step sets the field value and the current step is highlighted": the current step is the one holding the value', () => {
    const steps = stageSteps(status, grouped);
    expect(currentStep(steps, 2)).toBe(1);
    expect(currentStep(steps, 5)).toBe(3);
    expect(currentStep(steps, 9)).toBe(-1);
    expect(stepLabel(steps[3]!, 5)).toBe('Canceled');
    expect(stepLabel(steps[3]!, 1)).toBe('Completed / Canceled');
  });

  it('"The default value is used when the field is empty"', () => {
    expect(stageValue(null, { defaultValue: 1 })).toBe(1);
    expect(stageValue('', { defaultValue: 1 })).toBe(1);
    expect(stageValue(3, { defaultValue: 1 })).toBe(3);
    expect(stageValue(undefined, {})).toBeUndefined();
  });

  it('property: any grouping keeps every option reachable exactly once, and every value is in the step found for it', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 4 }), { maxLength: 5 }), (groups) => {
        const steps = stageSteps(status, { steps: groups });
        const values = steps.flatMap((s) => s.options.map((o) => o.value));
        expect([...values].sort()).toEqual([1, 2, 3, 4, 5]);
        for (const v of values) expect(steps[currentStep(steps, v)]!.options.some((o) => o.value === v)).toBe(true);
      }),
    );
  });
});
