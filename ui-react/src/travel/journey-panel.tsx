import { useSignals } from '@preact/signals-react/runtime';
import { useId, type ReactNode } from 'react';
import { checkPermissionString, formatCivil, formatLegDuration, type Leg, type Transport } from '../core.js';
import { fromLocalInput, toLocalInput } from '../form/editors.js';
import { LookupInput } from '../form/lookup.js';
import type { CustomPanelProps } from '../form/custom-panels.js';
import { useWidth } from '../form/use-width.js';
import { useT, type T } from '../i18n.js';
import { caller } from '../state/session.js';
import { confirmDialog } from '../ui/dialogs.js';
import { Icon } from '../ui/icons.js';
import { AmountInput, amountText } from './amount-input.js';
import { COST_FIELDS, TRANSPORTS, type CostField, type JourneyModel } from './journey-model.js';
import { useJourney } from './use-journey.js';

/** Below this width the leg grid becomes a list of cards (spec 002 section 2). */
export const NARROW_ROUTE_PX = 420;

const TRANSPORT_TEXT: Record<Transport, 'TravelTransportNo' | 'TravelTransportBus' | 'TravelTransportTrain'> = {
  no: 'TravelTransportNo',
  bus: 'TravelTransportBus',
  train: 'TravelTransportTrain',
};
const COST_TEXT: Record<CostField, 'TravelTravelCost' | 'TravelFoodCost' | 'TravelSleepCost' | 'TravelOtherCost' | 'TravelRequiredCost'> = {
  travel_cost: 'TravelTravelCost',
  food_cost: 'TravelFoodCost',
  sleep_cost: 'TravelSleepCost',
  other_cost: 'TravelOtherCost',
  required_cost: 'TravelRequiredCost',
};

/** What the user may do in the grid (spec 002 section 6). */
type Rights = { edit: boolean; address: boolean; override: boolean };

/** One labelled value of a leg: a cell of the grid, a row of the narrow card. */
/** `cost`: shown on the leg's second line in the grid (own distance and the five costs). */
type LegField = { key: string; label: string; node: ReactNode; className?: string; cost?: boolean };

const legTitle = (t: T, i: number, count: number): string => (i === 0 ? t('TravelStartPoint') : i === count - 1 ? t('TravelEndPoint') : t('TravelLegN', { n: i }));

/**
 * The journey panel of a travel report (spec 002 sections 2 to 5): the legs with their
 * location, address, times, transport, distance and costs; add a stop after a leg, delete any leg
 * but the first; the end location locked until the user confirms; totals after every change.
 */
const JourneyPanel = ({ panel, ctx }: CustomPanelProps) => {
  useSignals();
  const t = useT();
  const m = useJourney(ctx);
  const [ref, width] = useWidth<HTMLDivElement>();
  const base = useId();
  const me = caller.value;
  const rights: Rights = {
    // ctx.readOnly: no update on route_route (or create, for a new report)
    edit: !ctx.readOnly,
    address: !!me && checkPermissionString(me, 'route_address;1'),
    override: !ctx.readOnly && !!me && checkPermissionString(me, 'route_actions;2'),
  };
  const legs = m.legs.value;
  const narrow = width > 0 && width < NARROW_ROUTE_PX;
  const bounds = m.bounds.value;
  const min = bounds ? `${formatCivil(bounds.min)}T00:00` : undefined;
  const max = bounds ? `${formatCivil(bounds.max)}T23:59` : undefined;

  const unlock = async () => {
    if (await confirmDialog(t('TravelUnlockAsk'), t('TravelUnlock'), t('CmdCancel'))) m.unlockEnd();
  };

  const fieldsOf = (leg: Leg, i: number): LegField[] => {
    const id = `${base}-${i}`;
    const last = i === legs.length - 1 && legs.length > 1;
    const locked = last && m.endLocked.value;
    const flash = m.flash.value?.legId === leg.id ? (m.flash.value.ok ? 'flash-ok' : 'flash-failed') : '';
    const fields: LegField[] = [
      {
        key: 'location',
        label: t('TravelLocation'),
        className: 'travel-col-location',
        node: locked ? (
          <div className="travel-locked">
            <span className="muted small">
              <Icon name="home" size={14} /> {t('TravelEndLocked')}
            </span>
            {rights.edit && (
              <button type="button" className="btn btn-plain btn-small" onClick={() => void unlock()}>
                {t('TravelUnlockEnd')}
              </button>
            )}
          </div>
        ) : (
          <LookupInput id={`${id}-location`} targets={['route_location']} value={leg.location ?? null} onChange={(v) => void m.setLocation(i, v)} disabled={!rights.edit} label={t('TravelLocation')} />
        ),
      },
    ];
    if (rights.address) {
      fields.push({
        key: 'address',
        label: t('TravelAddress'),
        className: 'travel-col-address',
        node: (
          <div className="travel-address">
            <input
              id={`${id}-address`}
              aria-label={t('TravelAddress')}
              value={leg.address ?? ''}
              disabled={!rights.edit || locked}
              onChange={(e) => m.setAddress(i, e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  void m.lookupAddress(i);
                }
              }}
            />
            <button
              type="button"
              className={`icon-btn travel-find ${flash}`}
              aria-label={t('TravelFindAddress')}
              title={t('TravelFindAddress')}
              disabled={!rights.edit || locked || m.busyLeg.value === leg.id}
              data-has-coordinates={typeof leg.latitude === 'number' || undefined}
              onClick={() => void m.lookupAddress(i)}
            >
              <Icon name={m.busyLeg.value === leg.id ? 'hourglass' : 'search'} size={16} />
            </button>
          </div>
        ),
      });
    }
    fields.push(
      {
        key: 'time',
        label: `${t('TravelStart')} / ${t('TravelEnd')}`,
        className: 'travel-col-time',
        node: (
          <div className="travel-times">
            <input
              type="datetime-local"
              aria-label={t('TravelStart')}
              value={toLocalInput(leg.startdate)}
              min={min}
              max={max}
              disabled={!rights.edit}
              onChange={(e) => {
                const iso = fromLocalInput(e.target.value);
                if (iso) m.setStart(i, iso);
              }}
            />
            <input
              type="datetime-local"
              aria-label={t('TravelEnd')}
              value={toLocalInput(leg.enddate)}
              min={min}
              max={max}
              disabled={!rights.edit}
              onChange={(e) => {
                const iso = fromLocalInput(e.target.value);
                if (iso) m.setEnd(i, iso);
              }}
            />
          </div>
        ),
      },
      {
        key: 'transport',
        label: t('TravelTransport'),
        node: (
          <select aria-label={t('TravelTransport')} value={leg.masstransit} disabled={!rights.edit} onChange={(e) => m.setTransport(i, e.target.value as Transport)}>
            {TRANSPORTS.map((tr) => (
              <option key={tr} value={tr}>
                {t(TRANSPORT_TEXT[tr])}
              </option>
            ))}
          </select>
        ),
      },
      {
        key: 'distance',
        label: t('TravelDistance'),
        className: 'num',
        node: (
          <span className="travel-distance">
            <span>{amountText(leg.distance ?? 0)}</span>
            {leg.duration != null && <span className="muted small" title={t('TravelDuration')}>{formatLegDuration(leg.duration)}</span>}
          </span>
        ),
      },
      {
        key: 'custom_distance',
        cost: true,
        label: t('TravelCustomDistance'),
        node: <AmountInput id={`${id}-custom`} label={t('TravelCustomDistance')} value={leg.custom_distance} disabled={!rights.override} invalidText={t('TravelNotAmount')} onCommit={(v) => m.setCost(i, 'custom_distance', v)} />,
      },
      ...COST_FIELDS.map((c) => ({
        key: c,
        cost: true,
        label: t(COST_TEXT[c]),
        node: <AmountInput id={`${id}-${c}`} label={t(COST_TEXT[c])} value={leg[c]} disabled={!rights.edit} invalidText={t('TravelNotAmount')} onCommit={(v) => m.setCost(i, c, v)} />,
      })),
    );
    return fields;
  };

  const actions = (i: number) =>
    rights.edit && (
      <div className="travel-actions">
        <button type="button" className="icon-btn" aria-label={t('TravelAddStop', { n: i + 1 })} title={t('TravelAddStop', { n: i + 1 })} onClick={() => m.addStop(i)}>
          <Icon name="plus" size={16} />
        </button>
        {i > 0 && (
          <button type="button" className="icon-btn danger" aria-label={t('TravelDeleteLeg', { n: i + 1 })} title={t('TravelDeleteLeg', { n: i + 1 })} onClick={() => m.deleteLeg(i)}>
            <Icon name="trash" size={16} />
          </button>
        )}
      </div>
    );

  const expense = (leg: Leg) => amountText(COST_FIELDS.reduce((s, c) => s + (Number(String(leg[c] ?? 0).replace(',', '.')) || 0), 0));

  return (
    <section className="panel travel-journey" aria-label={t('TravelRouteTitle')} data-panel={panel.name}>
      <div className="travel-head">
        <h2 className="panel-title">{t('TravelRouteTitle')}</h2>
        <Totals m={m} t={t} />
      </div>
      {m.loadError.value && <p className="notice error-text">{t('TravelUnreadable', { error: m.loadError.value })}</p>}
      <p className="muted small travel-status" aria-live="polite">
        {m.directions.value === 'loading' ? t('TravelMeasuring') : m.directions.value === 'failed' ? t('TravelMeasureFailed') : ''}
      </p>
      <div ref={ref}>
        {legs.length === 0 ? (
          <p className="empty">{t('TravelNoLegs')}</p>
        ) : narrow ? (
          <ol className="travel-cards">
            {legs.map((leg, i) => (
              <li key={leg.id} className="travel-card" aria-label={legTitle(t, i, legs.length)}>
                <div className="travel-card-head">
                  <strong>{legTitle(t, i, legs.length)}</strong>
                  {actions(i)}
                </div>
                {fieldsOf(leg, i).map((f) => (
                  <label key={f.key} className={`travel-card-row ${f.cost || f.key === 'transport' || f.key === 'distance' ? 'half' : ''}`}>
                    <span className="muted small">{f.label}</span>
                    {f.node}
                  </label>
                ))}
                <div className="travel-card-row half">
                  <span className="muted small">{t('TravelLegExpense')}</span>
                  <span className="num">{expense(leg)}</span>
                </div>
              </li>
            ))}
          </ol>
        ) : (
          <div className="travel-grid-wrap">
            <table className="travel-grid travel-legs">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  {fieldsOf(legs[0], 0)
                    .filter((f) => !f.cost)
                    .map((f) => (
                      <th key={f.key} scope="col" className={f.className}>
                        {f.label}
                      </th>
                    ))}
                  {rights.edit && (
                    <th scope="col">
                      <span className="sr-only">{t('TravelActions')}</span>
                    </th>
                  )}
                </tr>
              </thead>
              {legs.map((leg, i) => {
                const fields = fieldsOf(leg, i);
                const main = fields.filter((f) => !f.cost);
                return (
                  <tbody key={leg.id} className="travel-leg" aria-label={legTitle(t, i, legs.length)}>
                    <tr>
                      <th scope="row" rowSpan={2} className="muted small travel-leg-no" title={legTitle(t, i, legs.length)}>
                        {i === 0 ? <Icon name="home" size={14} /> : i}
                      </th>
                      {main.map((f) => (
                        <td key={f.key} className={f.className}>
                          {f.node}
                        </td>
                      ))}
                      {rights.edit && <td rowSpan={2}>{actions(i)}</td>}
                    </tr>
                    <tr className="travel-costs-row">
                      <td colSpan={main.length}>
                        <div className="travel-costs">
                          {fields
                            .filter((f) => f.cost)
                            .map((f) => (
                              <label key={f.key} className="travel-cost">
                                <span className="muted small">{f.label}</span>
                                {f.node}
                              </label>
                            ))}
                          <div className="travel-cost">
                            <span className="muted small">{t('TravelLegExpense')}</span>
                            <span className="travel-expense">{expense(leg)}</span>
                          </div>
                        </div>
                      </td>
                    </tr>
                  </tbody>
                );
              })}
            </table>
          </div>
        )}
      </div>
    </section>
  );
};

/** The report's totals: distance (car legs, own distance overriding), expenses, the meal allowance. */
const Totals = ({ m, t }: { m: JourneyModel; t: T }) => {
  const totals = m.totals.value;
  return (
    <dl className="travel-totals">
      <div>
        <dt>{t('TravelTotalDistance')}</dt>
        <dd data-total="distance">{amountText(totals.total_distance)} km</dd>
      </div>
      <div>
        <dt>{t('TravelTotalExpense')}</dt>
        <dd data-total="expense">{amountText(totals.total_expense)}</dd>
      </div>
      <div>
        <dt>{t('TravelTotalAllowance')}</dt>
        <dd data-total="allowance">{amountText(totals.total_allowance)}</dd>
      </div>
    </dl>
  );
};

export { Totals as TravelTotals };
export default JourneyPanel;
