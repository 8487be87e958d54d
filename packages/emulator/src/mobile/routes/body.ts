/** Reading form-urlencoded or JSON bodies the same way. */
import type { FastifyRequest } from 'fastify';
import { missing } from '../errors.ts';

export type Fields = Record<string, unknown>;

export function fieldsOf(request: FastifyRequest): Fields {
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Fields) : {};
}

/** A field as text; undefined when absent. */
export function text(fields: Fields, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map(String).join(',');
  return String(value);
}

export function requiredText(fields: Fields, name: string): string {
  const value = text(fields, name)?.trim();
  if (!value) throw missing(name);
  return value;
}
