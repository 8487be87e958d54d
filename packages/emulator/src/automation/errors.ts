/** Error answers of the automation interface: `{ message, code }`, plus `fields` for invalid input. */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

interface AutomationErrorBody {
  message: string;
  code?: string;
  fields?: Record<string, string>;
}

export function sendError(reply: FastifyReply, status: number, message: string, code?: string): FastifyReply {
  const body: AutomationErrorBody = { message, ...(code ? { code } : {}) };
  return reply.code(status).send(body);
}

/** Turns schema validation failures into 400 answers naming each offending field. */
export function automationErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.validation) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const missing = (issue.params as { missingProperty?: string }).missingProperty;
      const where = `${error.validationContext ?? 'body'}${issue.instancePath.replaceAll('/', '.')}`;
      fields[missing ? `${where}.${missing}` : where] = issue.message ?? 'is invalid';
    }
    const body: AutomationErrorBody = {
      message: `Invalid request: ${error.message}`,
      code: 'invalid_request',
      fields,
    };
    return reply.code(400).send(body);
  }
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  // Parser and client errors keep their text; anything else is hidden behind a generic message.
  const message = status < 500 ? error.message : 'Internal error';
  return reply
    .code(status)
    .send({ message, code: status < 500 ? (error.code ?? 'bad_request') : 'internal_error' });
}
