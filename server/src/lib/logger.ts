/**
 * The logging services need: structured fields first, then a message (pino's order). Fastify's
 * `app.log` and a plain pino logger both fit, so services take this instead of a framework type.
 */
export interface Log {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}
