import { useSignals } from '@preact/signals-react/runtime';
import { MEAL_BREAKFAST, MEAL_DINNER, MEAL_LUNCH, MEALS_ALL } from '../core.js';
import type { CustomPanelProps } from '../form/custom-panels.js';
import { formatDate } from '../format.js';
import { useT } from '../i18n.js';
import { amountText } from './amount-input.js';
import { useJourney } from './use-journey.js';

const MEALS = [
  { bit: MEAL_BREAKFAST, text: 'TravelBreakfast' },
  { bit: MEAL_LUNCH, text: 'TravelLunch' },
  { bit: MEAL_DINNER, text: 'TravelDinner' },
] as const;

/** Hours as the grid shows them (up to 2 decimals, the user's separator). */
const hoursText = (h: number): string => amountText(h).replace(/[.,]00$/, '');

/**
 * The allowance grid of a travel report (spec 002 sections 3 and 9): one row per day of the route
 * with its hours, the meals provided (each a switch, and all meals at once; bitmask 1 breakfast, 2
 * lunch, 4 dinner, 7 all), the claim and the claim with no meal provided. The days follow the legs.
 */
const JourneyDietaryPanel = ({ panel, ctx }: CustomPanelProps) => {
  useSignals();
  const t = useT();
  const m = useJourney(ctx);
  const days = m.diet.value;
  const disabled = ctx.readOnly;
  const total = m.allowance.value;
  const maxTotal = days.reduce((s, d) => s + Math.round(d.maxClaim * 100), 0) / 100;
  return (
    <section className="panel travel-diet" aria-label={t('TravelAllowanceTitle')} data-panel={panel.name}>
      <h2 className="panel-title">{t('TravelAllowanceTitle')}</h2>
      {days.length === 0 ? (
        <p className="empty">{t('TravelNoDays')}</p>
      ) : (
        <div className="travel-grid-wrap">
          <table className="travel-grid travel-diet-grid">
            <thead>
              <tr>
                <th scope="col">{t('TravelDate')}</th>
                <th scope="col" className="num">
                  {t('TravelHours')}
                </th>
                <th scope="col">{t('TravelMealsProvided')}</th>
                <th scope="col" className="num">
                  {t('TravelClaim')}
                </th>
                <th scope="col" className="num">
                  {t('TravelMaxClaim')}
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => {
                const day = formatDate(d.date, true);
                return (
                  <tr key={d.date} data-date={d.date}>
                    <th scope="row">{day}</th>
                    <td className="num">{hoursText(d.hours)}</td>
                    <td>
                      <div className="travel-meals" role="group" aria-label={`${t('TravelMealsProvided')} ${day}`}>
                        {MEALS.map((meal) => (
                          <label key={meal.bit} className="travel-meal">
                            <input type="checkbox" checked={(d.meals & meal.bit) !== 0} disabled={disabled} onChange={() => m.toggleMeal(d.date, meal.bit)} />
                            {t(meal.text)}
                          </label>
                        ))}
                        <label className="travel-meal travel-meal-all">
                          <input type="checkbox" checked={(d.meals & MEALS_ALL) === MEALS_ALL} disabled={disabled} onChange={() => m.toggleAllMeals(d.date)} />
                          {t('TravelAllMeals')}
                        </label>
                      </div>
                    </td>
                    <td className="num" data-claim>
                      {amountText(d.claim)}
                    </td>
                    <td className="num muted">{amountText(d.maxClaim)}</td>
                  </tr>
                );
              })}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  {t('TravelTotal')}
                </th>
                <td className="num" data-total="allowance">
                  <strong>{amountText(total)}</strong>
                </td>
                <td className="num muted">{amountText(maxTotal)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
};

export default JourneyDietaryPanel;
