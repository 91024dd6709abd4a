import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { isLinkEntity, type Entity } from '../metadata/entity.js';
import { BOM } from './csv-preamble.js';
import { isImportable } from './header-map.js';

/**
 * The Download Template file (spec 002 section 5): the property names except the created and
 * modified fields, joined by semicolons, in `import_{object}.csv`. Fields import never writes
 * (versionnumber, binary and secret fields) are left out too. It starts with a byte-order mark,
 * like every CSV the product writes, so spreadsheets read it as UTF-8.
 */
export const importTemplateFileName = (entity: Pick<Entity, 'logicalName'>): string => `import_${entity.logicalName}.csv`;

/** Entities offered for import: link (`many`) entities are not (spec 002 section 3). */
export const importableEntities = <E extends Entity>(entities: readonly E[]): E[] => entities.filter((e) => !isLinkEntity(e));

export const importTemplate = (entity: Entity): Either<InputError, { fileName: string; content: string }> =>
  isLinkEntity(entity)
    ? left(inputError(`${entity.logicalName} is a link entity and cannot be imported`))
    : right({
        fileName: importTemplateFileName(entity),
        content: `${BOM}${entity.properties.filter(isImportable).map((p) => p.logicalName).join(';')}\r\n`,
      });
