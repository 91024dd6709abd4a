/**
 * A script's failure as the user and /api/apperror see it (issue 16): the script's name, the
 * line of its source, and what went wrong. The sandbox runs the source after a prelude of its
 * own, so a line of the sandbox's file is the script's line plus the prelude's length.
 */
export type ScriptFailure =
  | { _tag: 'ScriptThrew'; script: string; message: string; line?: number }
  | { _tag: 'ScriptTimedOut'; script: string; seconds: number }
  /** the sandbox broke the protocol (a message that does not decode) */
  | { _tag: 'ScriptProtocol'; script: string; message: string };

/**
 * The first line of the script's own file named in a stack trace (`blob:...:12:5` in Chromium and
 * Firefox, both as `at f (url:12:5)` and `f@url:12:5`), minus the prelude. Undefined when the
 * stack does not name the script's file or the line falls in the prelude.
 */
export const scriptLine = (stack: string, fileUrl: string, preludeLines: number): number | undefined => {
  for (const m of stack.matchAll(/([^\s()@]+):(\d+):(\d+)/g)) {
    if (m[1] !== fileUrl) continue;
    const line = Number(m[2]) - preludeLines;
    if (line >= 1) return line;
  }
  return undefined;
};

/** The text of a failure, in the shape of the server's (ports/script-sandbox.ts scriptFailure): the name first, then the line. */
export const describeScriptFailure = (f: ScriptFailure): string => {
  switch (f._tag) {
    case 'ScriptThrew':
      return `Script ${f.script}${f.line !== undefined ? ` line ${f.line}` : ''}: ${f.message}`;
    case 'ScriptTimedOut':
      return `Script ${f.script}: stopped after ${f.seconds} s (time limit)`;
    case 'ScriptProtocol':
      return `Script ${f.script}: ${f.message}`;
  }
};

/** The default time limit of a script run. */
export const SCRIPT_TIME_LIMIT_MS = 5000;
