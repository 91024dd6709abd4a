import type { Command } from '../metadata/form.js';
import type { InuViewRecord } from '../metadata/inu-view.js';

/**
 * Which script runs where (issue 16; spec 001 section 3, spec 000 section 3). A script is an
 * inu_view record of kind `script` whose body is `{ "source": "..." }`, found by its name:
 * - form events: the form's `events` or the defaults `{entity}.change`, `{entity}.validate`,
 *   `{entity}.postsave` (formEvents in metadata/form.ts);
 * - a custom command (kind custom) of a form or a list: `{entity}.{command name}`;
 * - a quick filter's, a dashboard object's or a wizard panel's hook names its script directly
 *   (customFetch / extraFetch given as a text, loaderScript, wizardNextCommand).
 * A name without a script is not an error for events (most forms have none); a command without
 * its script is not offered.
 */

/** The script a custom command runs. */
export const commandScriptName = (entity: string, command: Pick<Command, 'name'>): string => `${entity}.${command.name}`;

/** The custom commands of a form or list (kind custom); std commands are built in. */
export const customCommands = (commands: readonly Command[] | undefined): Command[] => (commands ?? []).filter((c) => c.kind === 'custom');

/** A script's source text by name among the metadata objects (names compare without case, as metadata names do). */
export const scriptSource = (gui: readonly Pick<InuViewRecord, 'kind' | 'name' | 'body' | 'parsedBody'>[], name: string): string | undefined => {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return undefined;
  const g = gui.find((x) => x.kind === 'script' && x.name.toLowerCase() === wanted);
  if (!g) return undefined;
  const parsed = (g.parsedBody ?? safeParse(g.body)) as { source?: unknown } | undefined;
  return typeof parsed?.source === 'string' ? parsed.source : undefined;
};

const safeParse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
