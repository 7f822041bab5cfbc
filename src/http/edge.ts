// The edge check: one step every request of a service passes before any handler (onRequest for its parameters,
// preValidation for its body), so a request no store can hold is refused with 400 naming the parameter instead of
// failing deep inside (PostgreSQL refuses NUL and lone surrogates; an out-of-range page number overflows OFFSET).
// It checks every path parameter and every query value (Fastify has decoded both: `%00` is NUL here) for strings
// no store can keep, and the query parameters the service declares against their zod schemas; and it refuses a
// body holding a raw NUL byte. JSON bodies are checked further where they are parsed (json-body.ts: depth,
// escaped NUL, lone surrogates).
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { describeIssues } from '../domain/zod-issues.ts';
import { HttpError } from './errors.ts';
import { stringProblem } from './json-body.ts';

/** Query parameter name -> schema of its (single, string) value. A parameter given twice is refused. */
export type EdgeRules = Record<string, z.ZodType<unknown, string>>;

export function checkAtTheEdge(app: FastifyInstance, rules: EdgeRules): void {
  app.addHook('onRequest', async (request) => {
    for (const [name, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
      if (typeof value !== 'string') continue;
      const problem = stringProblem(value);
      if (problem) throw new HttpError('invalid', `path parameter ${shown(name)}: ${problem}`);
    }
    const query = (request.query ?? {}) as Record<string, string | string[] | undefined>;
    for (const [name, given] of Object.entries(query)) {
      const values = given === undefined ? [] : Array.isArray(given) ? given : [given];
      const problem = stringProblem(name) ?? values.map(stringProblem).find((p) => p !== undefined);
      if (problem) throw new HttpError('invalid', `query parameter ${shown(name)}: ${problem}`);
      const rule = rules[name];
      if (!rule) continue;
      if (values.length > 1) throw new HttpError('invalid', `query parameter ${name}: given ${values.length} times, expected once`);
      const parsed = rule.safeParse(values[0] ?? '');
      if (!parsed.success) throw new HttpError('invalid', `query parameter ${describeIssues(parsed.error, { prefix: name })}`);
    }
  });
  // Bodies arrive as text (conventions.ts). A raw NUL byte is never part of JSON or PEM text, and no store keeps it.
  app.addHook('preValidation', async (request) => {
    if (typeof request.body === 'string' && request.body.includes('\u0000'))
      throw new HttpError('malformed', 'Request malformed: the body contains a NUL byte');
  });
}

/** A parameter name as written in a refusal: plain when it is a plain word, else quoted and cut short. */
function shown(name: string): string {
  return /^[\w.-]{1,64}$/.test(name) ? name : JSON.stringify(name.slice(0, 64));
}
