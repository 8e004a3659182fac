// A small JSON reader (a DOM of objects, arrays, strings with escapes, numbers kept as text, booleans,
// null) and writer helpers. Argument errors panic with a message naming the field.
import { fromUtf8 } from "./bytes";

export const enum Kind {
  Null = 0,
  Bool = 1,
  Number = 2,
  String = 3,
  Array = 4,
  Object = 5,
}

export class JsonValue {
  kind: Kind = Kind.Null;
  flag: bool = false;
  /** The string value, or the number's text. */
  text: string = "";
  items: Array<JsonValue> = [];
  keys: Array<string> = [];

  get isNull(): bool {
    return this.kind == Kind.Null;
  }

  /** Member `name` of an object (the last one when repeated), or null when absent. */
  get(name: string): JsonValue | null {
    for (let i = this.keys.length - 1; i >= 0; i--) if (this.keys[i] == name) return this.items[i];
    return null;
  }
}

function kindName(k: Kind): string {
  switch (k) {
    case Kind.Null: return "null";
    case Kind.Bool: return "a boolean";
    case Kind.Number: return "a number";
    case Kind.String: return "a string";
    case Kind.Array: return "an array";
    default: return "an object";
  }
}

class Parser {
  pos: i32 = 0;
  constructor(public src: Uint8Array) {}

  fail(what: string): void {
    throw new Error("Failed to parse JSON arguments: " + what + " at byte " + this.pos.toString());
  }

  ws(): void {
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d) this.pos++;
      else break;
    }
  }

  peek(): i32 {
    return this.pos < this.src.length ? <i32>this.src[this.pos] : -1;
  }

  expect(c: i32): void {
    if (this.peek() != c) this.fail("expected '" + String.fromCharCode(c) + "'");
    this.pos++;
  }

  literal(word: string): void {
    for (let i = 0; i < word.length; i++) {
      if (this.peek() != word.charCodeAt(i)) this.fail("invalid literal");
      this.pos++;
    }
  }

  value(depth: i32): JsonValue {
    if (depth > 64) this.fail("nesting too deep");
    this.ws();
    const v = new JsonValue();
    const c = this.peek();
    if (c == 0x7b) {
      v.kind = Kind.Object;
      this.pos++;
      this.ws();
      if (this.peek() == 0x7d) {
        this.pos++;
        return v;
      }
      while (true) {
        this.ws();
        if (this.peek() != 0x22) this.fail("expected a string key");
        v.keys.push(this.string());
        this.ws();
        this.expect(0x3a);
        v.items.push(this.value(depth + 1));
        this.ws();
        if (this.peek() == 0x2c) {
          this.pos++;
          continue;
        }
        this.expect(0x7d);
        break;
      }
    } else if (c == 0x5b) {
      v.kind = Kind.Array;
      this.pos++;
      this.ws();
      if (this.peek() == 0x5d) {
        this.pos++;
        return v;
      }
      while (true) {
        v.items.push(this.value(depth + 1));
        this.ws();
        if (this.peek() == 0x2c) {
          this.pos++;
          continue;
        }
        this.expect(0x5d);
        break;
      }
    } else if (c == 0x22) {
      v.kind = Kind.String;
      v.text = this.string();
    } else if (c == 0x74) {
      this.literal("true");
      v.kind = Kind.Bool;
      v.flag = true;
    } else if (c == 0x66) {
      this.literal("false");
      v.kind = Kind.Bool;
    } else if (c == 0x6e) {
      this.literal("null");
    } else if (c == 0x2d || (c >= 0x30 && c <= 0x39)) {
      v.kind = Kind.Number;
      v.text = this.number();
    } else {
      this.fail(c < 0 ? "unexpected end of input" : "unexpected character");
    }
    return v;
  }

  number(): string {
    const start = this.pos;
    if (this.peek() == 0x2d) this.pos++;
    const intStart = this.pos;
    while (this.peek() >= 0x30 && this.peek() <= 0x39) this.pos++;
    const intLen = this.pos - intStart;
    if (intLen == 0) this.fail("invalid number");
    if (intLen > 1 && this.src[intStart] == 0x30) this.fail("leading zero in number");
    if (this.peek() == 0x2e) {
      this.pos++;
      const f = this.pos;
      while (this.peek() >= 0x30 && this.peek() <= 0x39) this.pos++;
      if (this.pos == f) this.fail("invalid number");
    }
    if (this.peek() == 0x65 || this.peek() == 0x45) {
      this.pos++;
      if (this.peek() == 0x2b || this.peek() == 0x2d) this.pos++;
      const e = this.pos;
      while (this.peek() >= 0x30 && this.peek() <= 0x39) this.pos++;
      if (this.pos == e) this.fail("invalid number");
    }
    return fromUtf8(this.src.subarray(start, this.pos));
  }

  hex4(): u32 {
    let v: u32 = 0;
    for (let i = 0; i < 4; i++) {
      const c = this.peek();
      let d: i32 = -1;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
      else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
      if (d < 0) this.fail("invalid \\u escape");
      v = (v << 4) | <u32>d;
      this.pos++;
    }
    return v;
  }

  string(): string {
    this.expect(0x22);
    const out = new Array<u8>();
    while (true) {
      const c = this.peek();
      if (c < 0) this.fail("unterminated string");
      this.pos++;
      if (c == 0x22) break;
      if (c < 0x20) this.fail("control character in string");
      if (c != 0x5c) {
        out.push(<u8>c);
        continue;
      }
      const e = this.peek();
      this.pos++;
      if (e == 0x22 || e == 0x5c || e == 0x2f) out.push(<u8>e);
      else if (e == 0x62) out.push(8);
      else if (e == 0x66) out.push(12);
      else if (e == 0x6e) out.push(10);
      else if (e == 0x72) out.push(13);
      else if (e == 0x74) out.push(9);
      else if (e == 0x75) {
        let cp = this.hex4();
        if (cp >= 0xd800 && cp <= 0xdbff) {
          if (this.peek() != 0x5c) this.fail("lone surrogate");
          this.pos++;
          if (this.peek() != 0x75) this.fail("lone surrogate");
          this.pos++;
          const lo = this.hex4();
          if (lo < 0xdc00 || lo > 0xdfff) this.fail("invalid surrogate pair");
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        } else if (cp >= 0xdc00 && cp <= 0xdfff) {
          this.fail("lone surrogate");
        }
        if (cp < 0x80) out.push(<u8>cp);
        else if (cp < 0x800) {
          out.push(<u8>(0xc0 | (cp >> 6)));
          out.push(<u8>(0x80 | (cp & 0x3f)));
        } else if (cp < 0x10000) {
          out.push(<u8>(0xe0 | (cp >> 12)));
          out.push(<u8>(0x80 | ((cp >> 6) & 0x3f)));
          out.push(<u8>(0x80 | (cp & 0x3f)));
        } else {
          out.push(<u8>(0xf0 | (cp >> 18)));
          out.push(<u8>(0x80 | ((cp >> 12) & 0x3f)));
          out.push(<u8>(0x80 | ((cp >> 6) & 0x3f)));
          out.push(<u8>(0x80 | (cp & 0x3f)));
        }
      } else this.fail("invalid escape");
    }
    const bytes = new Uint8Array(out.length);
    for (let i = 0; i < out.length; i++) bytes[i] = out[i];
    return fromUtf8(bytes);
  }
}

/** Parses a whole JSON document (trailing whitespace allowed). */
export function parseJson(src: Uint8Array): JsonValue {
  const p = new Parser(src);
  const v = p.value(0);
  p.ws();
  if (p.pos != src.length) p.fail("trailing characters");
  return v;
}

/** The call's arguments as an object; empty input counts as `{}`. */
export function parseArgs(src: Uint8Array): JsonValue {
  if (src.length == 0) {
    const v = new JsonValue();
    v.kind = Kind.Object;
    return v;
  }
  const v = parseJson(src);
  if (v.kind != Kind.Object) throw new Error("Failed to parse JSON arguments: expected an object");
  return v;
}

// ---- typed field access -------------------------------------------------------------------------------

function wrongType(name: string, expected: string, got: JsonValue): void {
  throw new Error("Invalid argument `" + name + "`: expected " + expected + ", got " + kindName(got.kind));
}

/** Member `field` of `obj` (named `path` in messages), or null when absent or null. */
export function optField(obj: JsonValue, field: string): JsonValue | null {
  const v = obj.get(field);
  if (v === null || v.isNull) return null;
  return v;
}

export function reqField(obj: JsonValue, field: string, path: string): JsonValue {
  const v = optField(obj, field);
  if (v === null) throw new Error("Missing argument `" + path + "`");
  return v;
}

export function asString(v: JsonValue, path: string): string {
  if (v.kind != Kind.String) wrongType(path, "a string", v);
  return v.text;
}

export function asObject(v: JsonValue, path: string): JsonValue {
  if (v.kind != Kind.Object) wrongType(path, "an object", v);
  return v;
}

export function asArray(v: JsonValue, path: string): Array<JsonValue> {
  if (v.kind != Kind.Array) wrongType(path, "an array", v);
  return v.items;
}

export function asBool(v: JsonValue, path: string): bool {
  if (v.kind != Kind.Bool) wrongType(path, "a boolean", v);
  return v.flag;
}

/** An unsigned integer up to `max`. */
export function asU64(v: JsonValue, path: string, max: u64 = u64.MAX_VALUE): u64 {
  if (v.kind != Kind.Number) wrongType(path, "an unsigned integer", v);
  const t = v.text;
  let n: u64 = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c < 0x30 || c > 0x39) throw new Error("Invalid argument `" + path + "`: expected an unsigned integer, got " + t);
    const d = <u64>(c - 0x30);
    if (n > (u64.MAX_VALUE - d) / 10) throw new Error("Invalid argument `" + path + "`: " + t + " is out of range");
    n = n * 10 + d;
  }
  if (n > max) throw new Error("Invalid argument `" + path + "`: " + t + " is out of range");
  return n;
}

export function reqString(obj: JsonValue, field: string, path: string = field): string {
  return asString(reqField(obj, field, path), path);
}

export function optString(obj: JsonValue, field: string, path: string = field): string | null {
  const v = optField(obj, field);
  return v === null ? null : asString(v, path);
}

export function reqObject(obj: JsonValue, field: string, path: string = field): JsonValue {
  return asObject(reqField(obj, field, path), path);
}

export function reqBool(obj: JsonValue, field: string, path: string = field): bool {
  return asBool(reqField(obj, field, path), path);
}

/** An optional unsigned integer; `dflt` when absent or null. */
export function optU64(obj: JsonValue, field: string, dflt: u64, path: string = field, max: u64 = u64.MAX_VALUE): u64 {
  const v = optField(obj, field);
  return v === null ? dflt : asU64(v, path, max);
}

// ---- writing ----------------------------------------------------------------------------------------

const HEX = "0123456789abcdef";

/** `s` as a JSON string literal, escaped as serde_json does. */
export function quote(s: string): string {
  let out = "\"";
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | null = null;
    if (c == 0x22) esc = "\\\"";
    else if (c == 0x5c) esc = "\\\\";
    else if (c < 0x20) {
      if (c == 0x08) esc = "\\b";
      else if (c == 0x0c) esc = "\\f";
      else if (c == 0x0a) esc = "\\n";
      else if (c == 0x0d) esc = "\\r";
      else if (c == 0x09) esc = "\\t";
      else esc = "\\u00" + HEX.charAt(c >> 4) + HEX.charAt(c & 15);
    }
    if (esc !== null) {
      out += s.substring(start, i) + esc;
      start = i + 1;
    }
  }
  return out + s.substring(start) + "\"";
}

/** Bytes as a JSON array of numbers. */
export function byteArray(b: Uint8Array): string {
  let out = "[";
  for (let i = 0; i < b.length; i++) {
    if (i > 0) out += ",";
    out += b[i].toString();
  }
  return out + "]";
}

/** Re-serialises a parsed value compactly. */
export function stringify(v: JsonValue): string {
  switch (v.kind) {
    case Kind.Null: return "null";
    case Kind.Bool: return v.flag ? "true" : "false";
    case Kind.Number: return v.text;
    case Kind.String: return quote(v.text);
    case Kind.Array: {
      let out = "[";
      for (let i = 0; i < v.items.length; i++) {
        if (i > 0) out += ",";
        out += stringify(v.items[i]);
      }
      return out + "]";
    }
    default: {
      let out = "{";
      for (let i = 0; i < v.keys.length; i++) {
        if (i > 0) out += ",";
        out += quote(v.keys[i]) + ":" + stringify(v.items[i]);
      }
      return out + "}";
    }
  }
}

/** An optional boolean; `dflt` when absent or null. */
export function optBool(obj: JsonValue, field: string, dflt: bool, path: string = field): bool {
  const v = optField(obj, field);
  return v === null ? dflt : asBool(v, path);
}
