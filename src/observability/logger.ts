import pino, { type Logger } from 'pino';

/**
 * Structured logs. Credentials never reach them: the paths below are censored wherever they
 * appear in a logged object (request headers, bodies, config).
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-svc-plugin-secret"]',
          'headers.authorization',
          'headers.cookie',
          'headers["x-svc-plugin-secret"]',
          '*.raw_key',
          '*.rcon_password',
          '*.sessionSecret',
          '*.pluginSecret',
          '*.clientSecret',
          '*.apiKey',
        ],
        censor: '[redacted]',
      },
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  );
}
