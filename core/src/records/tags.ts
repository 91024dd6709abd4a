/** Spec 001 section 3: tag fields are strings joined with ';'. */
export const TAG_SEPARATOR = ';';

const key = (tag: string): string => tag.toLowerCase();

/**
 * Tags as a list: trimmed, empty ones dropped, and never repeated (spec 001 section 5); a
 * repeat differing only in case is a repeat, and the first spelling stays.
 */
export const normalizeTags = (tags: readonly string[]): string[] => {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags.flatMap((t) => t.split(TAG_SEPARATOR))) {
    const tag = raw.trim();
    if (tag === '' || seen.has(key(tag))) continue;
    seen.add(key(tag));
    out.push(tag);
  }
  return out;
};

/** Reads a tag field's value into its tags. */
export const splitTags = (value: string | null | undefined): string[] => normalizeTags(value ? [value] : []);

/** Writes tags into a tag field's value: joined with ';', without repeats (null when none). */
export const joinTags = (tags: readonly string[]): string | null => {
  const list = normalizeTags(tags);
  return list.length ? list.join(TAG_SEPARATOR) : null;
};

/** Adds a tag unless it is already there (then the list is returned unchanged). */
export const addTag = (tags: readonly string[], tag: string): string[] => normalizeTags([...tags, tag]);

/** Whether a tag is already in the list (the editor then shows MsgTagRepeated). */
export const hasTag = (tags: readonly string[], tag: string): boolean => tags.some((t) => key(t) === key(tag.trim()));

/** The tags shown and how many more there are (spec 001 section 9: an 'N more' summary beyond the maximum). */
export const tagSummary = (tags: readonly string[], maxItems: number): { shown: string[]; more: number } => {
  const shown = tags.slice(0, Math.max(0, maxItems));
  return { shown, more: tags.length - shown.length };
};
