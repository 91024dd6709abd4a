import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, noObject, type InputError } from '../errors.js';
import { isLinkEntity, type Entity } from '../metadata/entity.js';

/**
 * Spec 002 section 5: what an import may write into. Link entities (type `many`) cannot be
 * imported; an unknown name is 'No Object:{name}'. One rule for the HTTP import and `tessera import`.
 */
export const importableEntity = (entities: readonly Entity[], name: string): Either<InputError, Entity> => {
  const entity = entities.find((e) => e.logicalName === name);
  if (!entity) return left(noObject(name));
  if (isLinkEntity(entity)) return left(inputError(`${entity.logicalName} is a link entity and cannot be imported`));
  return right(entity);
};
