import { useSignals } from '@preact/signals-react/runtime';
import { lazy, Suspense, useEffect, useMemo, useRef } from 'react';
import type { FieldValue, FormField, Property } from '../core.js';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import type { PanelContext } from '../form/panel-context.js';
import { addressFieldModel, addressFieldParameters } from './address-field-model.js';

/** Leaflet loads with the first map, not with the form: the input works while it comes. */
const AddressFieldMap = lazy(() => import('./address-field-map.js'));

const coordinate = (v: FieldValue | undefined, limit: number): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : null;
};

type Props = { id: string; p: Property; f: FormField; ctx: PanelContext; disabled: boolean; invalid: boolean; describedBy?: string; label: string };

/**
 * The address-with-map field (address-field-model.ts): a one-line address input, a small map at
 * zoom 9 with the pin at the record's coordinates, and 'Address not found' under it. Typing looks
 * the address up after a 1000 ms pause (Enter at once); the match's coordinates are set in the
 * form's coordinate fields. Read-only: the text and the pin, no lookups.
 */
export const AddressField = ({ id, p, f, ctx, disabled, invalid, describedBy, label }: Props) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const params = useMemo(() => addressFieldParameters(f, ctx.entity), [f, ctx.entity]);
  // The form's setValue of the moment (the model lives as long as the field, the context changes each render).
  const setValue = useRef(ctx.setValue);
  setValue.current = ctx.setValue;
  const model = useMemo(
    () =>
      params._tag === 'Fields'
        ? addressFieldModel({
            api,
            onLocated: (lat, lon) => {
              setValue.current(params.latitudeField, lat);
              setValue.current(params.longitudeField, lon);
            },
          })
        : null,
    [api, params],
  );
  useEffect(() => () => model?.dispose(), [model]);

  const value = ctx.record[p.logicalName];
  const text = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  const statusId = `${id}-status`;
  const lat = params._tag === 'Fields' ? coordinate(ctx.record[params.latitudeField], 90) : null;
  const lon = params._tag === 'Fields' ? coordinate(ctx.record[params.longitudeField], 180) : null;
  const point = lat !== null && lon !== null ? { lat, lon } : null;
  const busy = model?.busy.value ?? false;
  const message = params._tag === 'Invalid' ? t('MsgAddressFieldNoField', { field: params.field }) : model?.message.value ? t(model.message.value) : '';

  return (
    <div className="address-field">
      <div className="adorned">
        <input
          type="text"
          id={id}
          disabled={disabled}
          aria-labelledby={`${id}-label`}
          aria-describedby={[describedBy, statusId].filter(Boolean).join(' ')}
          aria-invalid={invalid || undefined}
          aria-busy={busy || undefined}
          maxLength={p.max}
          autoComplete="off"
          value={text}
          onChange={(e) => {
            ctx.setValue(p.logicalName, e.target.value);
            model?.typed(e.target.value);
          }}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || !model) return;
            e.preventDefault(); // an explicit lookup: no pause (spec 001 section 9: 0 for an explicit lookup)
            void model.lookupNow(e.currentTarget.value);
          }}
          onBlur={() => model?.flush()}
        />
        {busy && <span className="adornment spinner small" aria-hidden="true" />}
      </div>
      {params._tag === 'Fields' && (
        <Suspense fallback={<div className="map-canvas map-address-field" aria-hidden="true" />}>
          <AddressFieldMap point={point} label={t('LblAddressFieldMap', { field: label })} />
        </Suspense>
      )}
      <p id={statusId} className={`address-field-message ${params._tag === 'Invalid' ? 'error-text small' : ''}`} role="status" aria-live="polite">
        {message}
      </p>
    </div>
  );
};
