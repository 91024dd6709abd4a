import * as t from 'io-ts';

/** The dashed form of a UUID (API.md "Records on the wire": `id` is a UUID string), any case. */
const DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface GuidBrand {
  readonly Guid: unique symbol;
}

/** A record id on the wire: one codec for every place that checks a UUID (ids, survey keys, uploads). */
export const Guid = t.brand(t.string, (s): s is t.Branded<string, GuidBrand> => DASHED.test(s), 'Guid');
export type Guid = t.TypeOf<typeof Guid>;

export const isGuid = (u: unknown): u is Guid => Guid.is(u);
