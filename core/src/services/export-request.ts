import { primaryKeyOf, type Entity } from '../metadata/entity.js';
import type { FetchRequest } from '../query/query.js';

/**
 * Spec 002 section 2, Export Records: Selected. With `ids` the query is narrowed to the chosen
 * records (their primary key `in` the ids, and the query's own filter still applies); without
 * them the query is exported as it is.
 */
export const exportRequest = (entity: Entity, query: FetchRequest, ids?: readonly string[]): FetchRequest =>
  ids === undefined
    ? query
    : {
        ...query,
        entity: {
          ...query.entity,
          filter: {
            type: 'and',
            conditions: [{ attribute: primaryKeyOf(entity), operator: 'in', value: [...ids] }],
            filters: query.entity.filter ? [query.entity.filter] : [],
          },
        },
      };
