/**
 * Reading method params with serde-like error messages ("missing field `account_id`", "invalid type: ...").
 */
import { parseError } from './rpc-error.js';

export type Params = Record<string, unknown>;

const typeName = (v: unknown) =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'sequence'
      : typeof v === 'object'
        ? 'map'
        : typeof v === 'string'
          ? `string ${JSON.stringify(v)}`
          : typeof v === 'number'
            ? Number.isInteger(v)
              ? `integer \`${v}\``
              : `floating point \`${v}\``
            : typeof v === 'boolean'
              ? `boolean \`${v}\``
              : typeof v;

export function failParse(message: string): never {
  throw parseError(`Failed parsing args: ${message}`);
}

/** Params must be an object (named params). */
export function objectParams(params: unknown): Params {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    failParse(`invalid type: ${typeName(params)}, expected a map`);
  }
  return params as Params;
}

export function requireString(p: Params, field: string): string {
  const v = p[field];
  if (v === undefined) failParse(`missing field \`${field}\``);
  if (typeof v !== 'string') failParse(`invalid type: ${typeName(v)}, expected a string`);
  return v;
}

export function optionalString(p: Params, field: string): string | undefined {
  const v = p[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') failParse(`invalid type: ${typeName(v)}, expected a string`);
  return v;
}

export function requireArray(p: Params, field: string): unknown[] {
  const v = p[field];
  if (v === undefined) failParse(`missing field \`${field}\``);
  if (!Array.isArray(v)) failParse(`invalid type: ${typeName(v)}, expected a sequence`);
  return v;
}

export function rejectUnknownFields(p: Params, allowed: readonly string[]): void {
  for (const key of Object.keys(p)) {
    if (!allowed.includes(key))
      failParse(`unknown field \`${key}\`, expected one of ${allowed.map((a) => `\`${a}\``).join(', ')}`);
  }
}

export { typeName };
