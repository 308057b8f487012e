// Validation of JSON from the network: every message is checked against
// the shape the client relies on before it reaches the state, so a server
// bug or a hostile peer shows as an error message, not a broken page.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export class InvalidMessage extends Error {}

export function fail(path: string, what: string): never {
  throw new InvalidMessage(`${path}: expected ${what}`);
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function obj(v: unknown, path: string): JsonObject {
  return isObject(v) ? v : fail(path, 'an object');
}

export function str(v: unknown, path: string): string {
  return typeof v === 'string' ? v : fail(path, 'a string');
}

export function int(v: unknown, path: string): number {
  return typeof v === 'number' && Number.isInteger(v) ? v : fail(path, 'a whole number');
}

export function num(v: unknown, path: string): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fail(path, 'a number');
}

export function bool(v: unknown, path: string): boolean {
  return typeof v === 'boolean' ? v : fail(path, 'true or false');
}

export function arr<T>(v: unknown, path: string, item: (x: unknown, p: string) => T): T[] {
  if (!Array.isArray(v)) fail(path, 'an array');
  return v.map((x, i) => item(x, `${path}[${i}]`));
}

export function opt<T>(v: unknown, path: string, item: (x: unknown, p: string) => T): T | null {
  return v === undefined || v === null ? null : item(v, path);
}

export function oneOf<T extends string>(v: unknown, path: string, values: readonly T[]): T {
  const s = str(v, path);
  return (values as readonly string[]).includes(s) ? (s as T) : fail(path, values.join(' | '));
}

/** Any JSON value (used for parts that are only displayed, never interpreted). */
export function json(v: unknown, path: string): Json {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : fail(path, 'a finite number');
  if (Array.isArray(v)) return v.map((x, i) => json(x, `${path}[${i}]`));
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) out[k] = json(x, `${path}.${k}`);
    return out;
  }
  return fail(path, 'JSON');
}
