/**
 * Reads an import `.json` file as a stream of chunks (spec 002 section 5): the file must be an
 * array of objects; anything else is an error. Elements are cut out one by one (so a large file
 * is never held whole), nesting deeper than MAX_JSON_DEPTH is refused without buffering it, and
 * `__proto__` keys are dropped while parsing. Each element carries the line it starts on.
 */
export const MAX_JSON_DEPTH = 3; // the array, a record, a lookup object inside it
/** An element larger than this is refused (a record is small; a huge one is a broken file). */
export const MAX_JSON_ELEMENT_CHARS = 16 * 1024 * 1024;

export type JsonItem =
  | { line: number; value: Record<string, unknown> }
  | { line: number; error: string };

export type JsonChunkResult = { items: JsonItem[]; fatal?: string };

type State = 'start' | 'between' | 'element' | 'done' | 'failed';

const WS = /[\s\uFEFF]/;
const dropProto = (key: string, v: unknown): unknown => (key === '__proto__' ? undefined : v);

export class JsonArrayReader {
  private state: State = 'start';
  private line = 1;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private parts: string[] = [];
  private size = 0;
  private startLine = 0;
  private tooDeep = false;
  private tooLarge = false;
  private expectValue = true;

  push(chunk: string): JsonChunkResult {
    const items: JsonItem[] = [];
    if (this.state === 'failed') return { items };
    // Start, in this chunk, of the element text not yet saved (an element may span many chunks).
    let from = this.state === 'element' ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.state === 'element') {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (c === '\\') this.escaped = true;
          else if (c === '"') this.inString = false;
          else if (c === '\n') this.line++;
          continue;
        }
        if (c === '"') this.inString = true;
        else if (c === '{' || c === '[') {
          this.depth++;
          if (this.depth + 1 > MAX_JSON_DEPTH) this.tooDeep = true;
        } else if (c === '}' || c === ']' || c === ',' || WS.test(c)) {
          if (c === '}' || c === ']') this.depth--;
          if (c === '\n') this.line++;
          const endsScalar = this.depth === 0 && (c === ',' || c === ']' || WS.test(c)) && this.scalar;
          const endsComposite = this.depth === 0 && (c === '}' || c === ']') && !this.scalar;
          if (this.depth < 0 || endsScalar || endsComposite) {
            const end = endsComposite ? i + 1 : i;
            this.save(chunk, from < 0 ? 0 : from, end);
            from = -1;
            items.push(this.finish());
            this.state = 'between';
            this.expectValue = false;
            if (endsScalar || this.depth < 0) {
              this.depth = 0;
              i--; // the separator is read again in the 'between' state
              if (c === '\n') this.line--;
            }
          }
          continue;
        }
        continue;
      }
      if (c === '\n') this.line++;
      if (WS.test(c)) continue;
      if (this.state === 'start') {
        if (c !== '[') return this.fail(items, 'A .json file must be an array of objects');
        this.state = 'between';
        this.expectValue = true;
        continue;
      }
      if (this.state === 'done') return this.fail(items, `Line ${this.line}: text after the end of the array`);
      // between elements
      if (c === ']') {
        this.state = 'done';
        continue;
      }
      if (c === ',') {
        if (this.expectValue) return this.fail(items, `Line ${this.line}: unexpected ','`);
        this.expectValue = true;
        continue;
      }
      if (!this.expectValue) return this.fail(items, `Line ${this.line}: ',' expected between records`);
      this.begin(c);
      from = i;
      if (c === '"') this.inString = true;
      else if (c === '{' || c === '[') this.depth = 1;
    }
    if (this.state === 'element' && from >= 0) this.save(chunk, from, chunk.length);
    return { items };
  }

  /** Call once after the last chunk. */
  end(): JsonChunkResult {
    if (this.state === 'failed') return { items: [] };
    if (this.state === 'start') return { items: [], fatal: 'The file is empty' };
    if (this.state !== 'done') return { items: [], fatal: `Line ${this.line}: the array is not closed` };
    return { items: [] };
  }

  private scalar = false;

  private begin(c: string): void {
    this.state = 'element';
    this.parts = [];
    this.size = 0;
    this.startLine = this.line;
    this.tooDeep = false;
    this.tooLarge = false;
    this.depth = 0;
    this.scalar = c !== '{' && c !== '[';
  }

  private save(chunk: string, from: number, to: number): void {
    if (this.tooDeep || this.tooLarge || to <= from) return;
    this.size += to - from;
    if (this.size > MAX_JSON_ELEMENT_CHARS) {
      this.tooLarge = true;
      this.parts = [];
      return;
    }
    this.parts.push(chunk.slice(from, to));
  }

  private finish(): JsonItem {
    const line = this.startLine;
    if (this.tooDeep) return { line, error: `nested deeper than ${MAX_JSON_DEPTH} levels` };
    if (this.tooLarge) return { line, error: `the record is larger than ${MAX_JSON_ELEMENT_CHARS} characters` };
    const text = this.parts.join('');
    this.parts = [];
    let value: unknown;
    try {
      value = JSON.parse(text, dropProto);
    } catch (e) {
      return { line, error: `not valid JSON (${e instanceof Error ? e.message : String(e)})` };
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { line, error: 'an object is expected' };
    return { line, value: value as Record<string, unknown> };
  }

  private fail(items: JsonItem[], message: string): JsonChunkResult {
    this.state = 'failed';
    return { items, fatal: message };
  }
}
