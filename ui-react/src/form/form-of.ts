import { isRight } from 'fp-ts/lib/Either.js';
import type { Entity, Form } from '../core.js';
import { defaultFormOf, FormCodec, metadataSet } from '../core.js';
import { entityOf, guiObjects, parsedBody, session } from '../state/session.js';

/** The form of an entity: the named one, else one named default or main, else the first, else the generated form. */
export const formOf = (entity: Entity, name: string | undefined): Form => {
  const forms = guiObjects('form', entity.logicalName).flatMap((g) => {
    const d = FormCodec.decode(parsedBody(g));
    return isRight(d) ? [{ name: g.name, form: d.right }] : [];
  });
  const pick = (name && forms.find((f) => f.name === name)) || forms.find((f) => /^(default|main)$/i.test(f.name)) || forms[0];
  if (pick) return pick.form;
  const set = metadataSet(Object.values(session.value?.entities ?? {}));
  const lists = isRight(set)
    ? set.right.associatedLists(entity.logicalName).map((l) => ({ ...l, label: entityOf(l.entity)?.displayNamePlural ?? l.entity }))
    : [];
  return defaultFormOf(entity, lists);
};
