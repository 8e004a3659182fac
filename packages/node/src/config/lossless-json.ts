/**
 * A JSON reader that keeps the exact digits of every number.
 *
 * `JSON.parse` turns `400000000000000001` into a double and silently rounds it. Protocol parameters are u64
 * gas amounts, so the pinned parameter file is read with this instead: every number becomes a
 * {@link LosslessNumber} holding its source text, and the caller decides whether it is a `bigint`, a safe
 * `number` or a float. Everything else (strings, booleans, null, arrays, objects, key order) is what
 * `JSON.parse` would give. Duplicate keys are an error rather than last-one-wins.
 */

/** A JSON number, kept as the text it was written as. */
export class LosslessNumber {
  constructor(readonly raw: string) {}

  /** True when the number is written as an integer (no fraction, no exponent). */
  get isInteger(): boolean {
    return /^-?(0|[1-9]\d*)$/.test(this.raw);
  }

  toBigInt(): bigint {
    if (!this.isInteger) throw new RangeError(`${this.raw} is not an integer`);
    return BigInt(this.raw);
  }

  toNumber(): number {
    return Number(this.raw);
  }

  toString(): string {
    return this.raw;
  }
}

export type LosslessValue =
  | null
  | boolean
  | string
  | LosslessNumber
  | LosslessValue[]
  | { [key: string]: LosslessValue };

export class LosslessJsonError extends SyntaxError {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
    this.name = 'LosslessJsonError';
  }
}

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

export function parseLosslessJson(text: string): LosslessValue {
  let pos = 0;

  const fail = (message: string): never => {
    throw new LosslessJsonError(message, pos);
  };

  const skipWhitespace = (): void => {
    WHITESPACE.lastIndex = pos;
    WHITESPACE.exec(text);
    pos = WHITESPACE.lastIndex;
  };

  const parseString = (): string => {
    // Find the closing quote, then let JSON.parse decode the escapes of that one string literal.
    const start = pos;
    pos++;
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        pos++;
        return JSON.parse(text.slice(start, pos)) as string;
      }
      if (c === 0x5c) pos += 2;
      else if (c < 0x20) fail('control character in string');
      else pos++;
    }
    return fail('unterminated string');
  };

  const parseValue = (depth: number): LosslessValue => {
    if (depth > 512) fail('nesting too deep');
    skipWhitespace();
    const c = text[pos];
    if (c === '{') {
      pos++;
      const object: { [key: string]: LosslessValue } = {};
      skipWhitespace();
      if (text[pos] === '}') {
        pos++;
        return object;
      }
      for (;;) {
        skipWhitespace();
        if (text[pos] !== '"') fail('expected a string key');
        const key = parseString();
        if (Object.hasOwn(object, key)) fail(`duplicate key ${JSON.stringify(key)}`);
        skipWhitespace();
        if (text[pos] !== ':') fail("expected ':'");
        pos++;
        Object.defineProperty(object, key, {
          value: parseValue(depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        skipWhitespace();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === '}') {
          pos++;
          return object;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      pos++;
      const array: LosslessValue[] = [];
      skipWhitespace();
      if (text[pos] === ']') {
        pos++;
        return array;
      }
      for (;;) {
        array.push(parseValue(depth + 1));
        skipWhitespace();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === ']') {
          pos++;
          return array;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return parseString();
    if (text.startsWith('true', pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith('false', pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith('null', pos)) {
      pos += 4;
      return null;
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (match === null) return fail('unexpected character');
    pos = NUMBER.lastIndex;
    return new LosslessNumber(match[0]);
  };

  const value = parseValue(0);
  skipWhitespace();
  if (pos !== text.length) fail('unexpected text after the JSON value');
  return value;
}
