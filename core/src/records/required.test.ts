import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Property } from '../metadata/entity.js';
import { checkRequired } from './required.js';

const props: Property[] = [
  { logicalName: 'name', displayName: 'Name', type: 'String', flags: ['Required'] },
  { logicalName: 'city', displayName: 'City', type: 'String' },
  { logicalName: 'amount', displayName: 'Amount', type: 'Money', flags: ['Required'] },
];

describe('checkRequired (spec 001 section 5)', () => {
  it("fails with MsgRequiredFieldEmpty, 'Please provide a value for' and each label on its own line with a dash", () => {
    const r = checkRequired(props, { name: '', amount: null });
    expect(r).toEqual({
      _tag: 'Left',
      left: {
        _tag: 'RequiredFieldsMissing',
        key: 'MsgRequiredFieldEmpty',
        fields: ['name', 'amount'],
        labels: ['Name', 'Amount'],
        message: 'Please provide a value for\n- Name\n- Amount',
      },
    });
  });

  it('empty string, undefined and null count as empty; 0 and false are values', () => {
    for (const empty of ['', undefined, null]) expect(checkRequired(props, { name: empty, amount: 1 })._tag).toBe('Left');
    expect(checkRequired(props, { name: 'x', amount: 0 })._tag).toBe('Right');
    expect(checkRequired([{ logicalName: 'done', displayName: 'Done', type: 'Boolean', flags: ['Required'] }], { done: false })._tag).toBe('Right');
  });

  it("the form's override makes a field required or not, and renames it", () => {
    const r = checkRequired(props, { name: 'x', amount: 5 }, [{ name: 'city', required: true, label: 'Town' }]);
    expect(r._tag === 'Left' && r.left.message).toBe('Please provide a value for\n- Town');
    expect(checkRequired(props, { name: 'x' }, [{ name: 'amount', required: false }])._tag).toBe('Right');
  });

  it('a hidden field is never required', () => {
    expect(checkRequired(props, { name: 'x' }, [{ name: 'amount', hidden: true }])._tag).toBe('Right');
  });

  it('passes exactly when every required, visible field has a value', () => {
    const v = fc.constantFrom<string | number | null | undefined>('', null, undefined, 'x', 0);
    fc.assert(
      fc.property(v, v, v, (name, city, amount) => {
        const r = checkRequired(props, { name, city, amount });
        const empty = (x: unknown) => x === '' || x === null || x === undefined;
        expect(r._tag === 'Right').toBe(!empty(name) && !empty(amount));
      }),
    );
  });
});
