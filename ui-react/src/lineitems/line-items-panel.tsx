import { useSignals } from '@preact/signals-react/runtime';
import { useMemo } from 'react';
import type { Property } from '../core.js';
import { mayAccessSome } from '../core.js';
import { formatValue } from '../format.js';
import { useT } from '../i18n.js';
import { caller, entityOf } from '../state/session.js';
import { Icon } from '../ui/icons.js';
import type { CustomPanelProps } from '../form/custom-panels.js';
import { LookupInput } from '../form/lookup.js';
import { useWidth } from '../form/use-width.js';
import { useLineItems } from './use-line-items.js';
import { lineItemsParams, type LineItemsModel, type LineItemsParams, type LineView } from './line-items-model.js';

/** Below this width the lines are cards, one labelled field a line (spec 002 section 9: narrow threshold 700 px). */
const NARROW = 700;

/**
 * The line-item panel (customComponent `lineitems`, spec 002 "Line-item panel"): a product picker
 * with quantity, price and discount for each line, their amounts, and the parent's total moving
 * with them. The lines are written after the parent record is saved (a SaveParticipant).
 */
const LineItemsPanel = ({ panel, ctx }: CustomPanelProps) => {
  useSignals();
  const t = useT();
  const params = useMemo(() => lineItemsParams(panel.customComponentParameters), [panel.customComponentParameters]);
  if (!params || !entityOf(params.entity)) return <p className="notice panel">{t('MsgCheckConfiguration')}</p>;
  return <LineItems panel={panel} ctx={ctx} params={params} />;
};
export default LineItemsPanel;

const LineItems = ({ panel, ctx, params }: CustomPanelProps & { params: LineItemsParams }) => {
  useSignals();
  const t = useT();
  const model = useLineItems(ctx, panel.name, params);
  const lineEntity = entityOf(params.entity)!;
  const prop = (name: string): Property | undefined => lineEntity.properties.find((p) => p.logicalName === name);
  const [ref, width] = useWidth<HTMLElement>();
  const narrow = width > 0 && width < NARROW;
  const productTargets = prop(params.productField)?.targets ?? ['product'];

  const status = model.status.value;
  const views = model.views.value;
  const disabled = ctx.readOnly;
  // What the user may do to the lines themselves (the server checks each write as well).
  const me = caller.value;
  const may = {
    create: !!me && mayAccessSome(me, 'create', params.entity),
    update: !!me && mayAccessSome(me, 'update', params.entity),
    delete: !!me && mayAccessSome(me, 'delete', params.entity),
  };
  const money = (name: string, v: number | undefined) =>
    v === undefined ? '' : formatValue(prop(name), v, ctx.record);

  return (
    <section
      ref={ref}
      className={`panel lineitems ${narrow ? 'narrow' : ''}`}
      aria-label={panel.label ?? t('LineItemsTitle')}
      aria-busy={status === 'loading'}
    >
      {status === 'loading' ? (
        <div>
          <span className="skeleton" />
          <span className="skeleton" />
        </div>
      ) : status === 'error' ? (
        <div className="notice" role="alert">
          <p className="error-text">{t('LineItemsLoadFailed')}</p>
          {model.error.value && <p className="mono small">{model.error.value}</p>}
          <button type="button" className="btn btn-plain" onClick={() => void model.load(ctx.recordId)}>
            {t('CmdReload')}
          </button>
        </div>
      ) : (
        <>
          {views.length === 0 ? (
            <p className="empty lineitems-empty">{t('LineItemsEmpty')}</p>
          ) : (
            <table className="lineitems-table">
              <thead className={narrow ? 'sr-only' : undefined}>
                <tr>
                  <th scope="col">{prop(params.productField)?.displayName}</th>
                  <th scope="col" className="num">
                    {prop('quantity')?.displayName}
                  </th>
                  <th scope="col" className="num">
                    {prop('priceperunit')?.displayName}
                  </th>
                  <th scope="col" className="num">
                    {prop('discount')?.displayName}
                  </th>
                  <th scope="col" className="num">
                    {prop('baseamount')?.displayName}
                  </th>
                  <th scope="col" className="num">
                    {prop('totalamount')?.displayName}
                  </th>
                  <th scope="col">
                    <span className="sr-only">{t('LineItemsActions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {views.map((v, i) => (
                  <LineRowView
                    key={v.row.key}
                    v={v}
                    i={i}
                    model={model}
                    prop={prop}
                    money={money}
                    disabled={disabled}
                    may={may}
                    narrow={narrow}
                    productTargets={productTargets}
                    productField={params.productField}
                  />
                ))}
              </tbody>
            </table>
          )}
          <div className="lineitems-foot">
            <button
              type="button"
              className="btn btn-plain"
              disabled={disabled || !may.create}
              onClick={() => {
                const key = model.add();
                // The new line's product search takes the focus, as a keyboard user expects.
                requestAnimationFrame(() => document.getElementById(`li-${key}-product`)?.focus());
              }}
            >
              <Icon name="plus" /> {t('LineItemsAdd')}
            </button>
            <span className="lineitems-sum" aria-live="polite">
              {t('LineItemsTotal')}:{' '}
              <strong data-testid="lineitems-total">{money('totalamount', model.linesTotal.value)}</strong>
            </span>
          </div>
        </>
      )}
    </section>
  );
};

type RowProps = {
  v: LineView;
  i: number;
  model: LineItemsModel;
  prop: (name: string) => Property | undefined;
  money: (name: string, v: number | undefined) => string;
  disabled: boolean;
  may: { create: boolean; update: boolean; delete: boolean };
  narrow: boolean;
  productTargets: string[];
  productField: string;
};

/** One line: the product search, three number inputs, the two amounts, remove or keep. */
const LineRowView = ({ v, i, model, prop, money, disabled, may, narrow, productTargets, productField }: RowProps) => {
  const t = useT();
  const { row } = v;
  const id = `li-${row.key}`;
  const n = i + 1;
  const label = (name: string) => prop(name)?.displayName ?? name;
  const stored = row.id !== undefined;
  const off = disabled || v.deleting || (stored && !may.update);
  const numberInput = (
    name: 'quantity' | 'priceperunit' | 'discount',
    value: number | null,
    step: string,
    set: (x: number | null) => void,
    max?: number,
    placeholder?: number | null,
  ) => (
    <td className="num" data-label={label(name)}>
      <input
        id={`${id}-${name}`}
        className="input num"
        type="number"
        inputMode="decimal"
        min={0}
        max={max}
        step={step}
        value={value ?? ''}
        placeholder={placeholder === null || placeholder === undefined ? undefined : String(placeholder)}
        disabled={off}
        aria-label={`${label(name)} ${n}`}
        onChange={(e) => set(e.target.value === '' ? null : e.target.valueAsNumber)}
      />
    </td>
  );
  return (
    <tr className={`lineitem ${v.deleting ? 'deleting' : ''} ${v.changed ? 'changed' : ''}`} data-line={n}>
      <td className="product" data-label={label(productField)}>
        <LookupInput
          id={`${id}-product`}
          targets={productTargets}
          value={row.product}
          onChange={(p) => void model.setProduct(row.key, p)}
          disabled={off}
          label={`${label(productField)} ${n}`}
          invalid={v.changed && !v.deleting && !row.product}
        />
      </td>
      {numberInput('quantity', row.quantity, '0.01', (x) => model.setQuantity(row.key, x))}
      {numberInput(
        'priceperunit',
        row.priceperunit,
        '0.01',
        (x) => model.setPrice(row.key, x),
        undefined,
        row.listprice,
      )}
      {numberInput('discount', row.discount, '1', (x) => model.setDiscount(row.key, x), 100)}
      <td className="num amount" data-label={label('baseamount')}>
        {money('baseamount', v.totals?.baseamount)}
      </td>
      <td className="num amount strong" data-label={label('totalamount')}>
        {v.deleting ? (
          <span className="muted small">{t('LineItemsDeleted')}</span>
        ) : (
          money('totalamount', v.totals?.totalamount)
        )}
      </td>
      <td className="actions">
        {v.deleting ? (
          <button type="button" className="btn btn-plain" disabled={disabled} onClick={() => model.restore(row.key)}>
            <Icon name="undo" /> {t('LineItemsKeep')}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-plain icon-only"
            disabled={disabled || (stored && !may.delete)}
            aria-label={`${t('LineItemsRemove')} ${n}`}
            title={t('LineItemsRemove')}
            onClick={() => model.remove(row.key)}
          >
            <Icon name={narrow ? 'trash' : 'close'} />
          </button>
        )}
      </td>
    </tr>
  );
};
