import winston, { format } from 'winston';
import { GatewayError } from '../errors/gateway-error';
import { BatchedLineTransport } from './batched-line-transport';
import { createRedactFormat } from './create-redact-format';
import { createJsonLineWriter, registerJsonLineWriter } from './json-line-writer';

export type Logger = winston.Logger;

export interface CreateLoggerOptions {
  /** One of winston's npm levels: error, warn, info, http, verbose, debug, silly. */
  level: string;
  /** `json` (default): one JSON object per line, for log shippers. `pretty`: for a human at a terminal. */
  format?: 'json' | 'pretty';
  /** The credentials currently configured; any of them found in a string field is masked. Called per written entry. */
  secrets?: () => Iterable<string>;
}

/**
 * The process logger, writing to stdout: the lines of 20 ms in one write (BatchedLineTransport).
 * Plugins and requests get children of it (`log.child({...})`).
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const levels = winston.config.npm.levels;
  if (!Object.hasOwn(levels, options.level)) {
    throw new GatewayError('GW_INTERNAL', `log level "${options.level}" is unknown; use one of ${Object.keys(levels).join(', ')}`);
  }
  // winston runs the logger's format on every entry and filters by level only in the transports;
  // this gate drops a filtered entry before the redaction walk and the serialisation cost anything.
  const levelGate = format((info) => logger.isLevelEnabled(info.level) && info)();
  const logger: Logger = winston.createLogger({
    level: options.level,
    levels,
    format: format.combine(
      levelGate,
      format.errors({ stack: true }),
      createRedactFormat(options.secrets),
      format.timestamp(),
      options.format === 'pretty' ? prettyLine() : format.json(),
    ),
    transports: [new BatchedLineTransport()],
  });
  if (options.format !== 'pretty') registerJsonLineWriter(logger, createJsonLineWriter(options.secrets));
  return logger;
}

/** `2025-01-02T03:04:05.678Z info platform mounted {"plugin":"claude"}`, the level coloured, a stack below. */
function prettyLine(): winston.Logform.Format {
  return format.combine(
    format.colorize({ level: true }),
    format.printf(({ timestamp, level, message, stack, ...fields }) => {
      const text = typeof message === 'string' ? message : JSON.stringify(message, jsonReplacer);
      const rest = Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields, jsonReplacer)}` : '';
      const trace = typeof stack === 'string' ? `\n${stack}` : '';
      return `${String(timestamp)} ${level} ${text}${rest}${trace}`;
    }),
  );
}

function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
