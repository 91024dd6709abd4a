import { likeLiteral } from '../core.js';
import { useApi } from '../api/context.js';

/** A record found by a lookup search: its id and name. */
export type Hit = { id: string; label: string };

/** Spec 001 section 9: lookup search uses starts-with matching on name. */
export const useLookupSearch = (target: string) => {
  const api = useApi();
  return async (text: string, pageSize = 10): Promise<Hit[]> => {
    const q = likeLiteral(text.trim());
    const res = await api.fetch({
      entity: {
        name: target,
        attributes: [{ attribute: 'id' }, { attribute: 'name' }],
        ...(q ? { filter: { type: 'and', conditions: [{ attribute: 'name', operator: 'like', value: `${q}%` }] } } : {}),
        orders: [{ attribute: 'name' }],
      },
      page: 1,
      pageSize,
    });
    return res.records.map((r) => ({ id: String(r.id), label: String(r.name ?? r.id) }));
  };
};
