import { readFileSync } from 'node:fs';
import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { loadPack, withViewIndexHints, type Entity, type Pack } from '@tessera/core/internal';

/**
 * The metadata file of `schema diff|apply --to`: a pack (docs/metadata.md) holding the complete
 * set of entities, as `schema export` writes it. Its entities are the target; views, roles and
 * apps in the file are records, which the schema does not hold.
 */
export const readMetadataFile = (path: string): Either<string, Entity[]> => {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return left(`cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return left(`${path} is not JSON: ${(e as Error).message}`);
  }
  const pack = loadPack(raw, path);
  if (pack._tag === 'Left') return left(`${pack.left.message}; fix the file and run again`);
  // A pack's views ask for indexes of their entities (a calendar's date fields).
  return right(withViewIndexHints(pack.right.entities, pack.right.views ?? []));
};

/** The file `schema export` writes: a pack named after the organization with every applied entity. */
export const exportedPack = (org: string, entities: readonly Entity[]): Pack => ({
  name: org,
  label: `Metadata of ${org}`,
  entities: [...entities],
});
