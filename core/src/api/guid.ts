import * as t from 'io-ts';
import { isGuid } from '../metadata/field-values.js';

export interface GuidBrand {
  readonly Guid: unique symbol;
}

/**
 * A record id on the wire (API.md "Records on the wire": `id` is a UUID string, dashed, any
 * case): the one codec for ids the edges decode (survey keys, uploads). The test is the field
 * types' own (metadata/field-values.ts).
 */
export const Guid = t.brand(t.string, (s): s is t.Branded<string, GuidBrand> => isGuid(s), 'Guid');
export type Guid = t.TypeOf<typeof Guid>;
