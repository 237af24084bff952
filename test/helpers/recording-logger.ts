import winston from 'winston';
import Transport from 'winston-transport';

/** A logger whose entries the spec reads. */
export function recordingLogger(): { log: winston.Logger; entries: Array<Record<string, unknown>> } {
  const entries: Array<Record<string, unknown>> = [];
  const transport = new (class extends Transport {
    override log(info: Record<string, unknown>, done: () => void): void {
      entries.push(info);
      done();
    }
  })();
  return { log: winston.createLogger({ transports: [transport] }), entries };
}
