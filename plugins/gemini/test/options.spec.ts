import { expect } from 'chai';
import { startGateway } from '../../../test/helpers/start-gateway';
import { UPSTREAM } from './helpers';

describe('gemini plugin: options', () => {
  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ['no credentials', {}, /credentials/],
    ['an empty API key', { credentials: [{ apiKey: '' }] }, /apiKey/],
    ['a safety setting that is not a harm category', { credentials: [], safetySettings: [{ category: 'VIOLENCE', threshold: 'OFF' }] }, /safetySettings\[0\]\.category/],
    ['a malformed API version', { credentials: [], apiVersion: 'beta' }, /apiVersion/],
  ];
  for (const [name, options, field] of bad) {
    it(`stops start-up on ${name}, naming the field`, async () => {
      const error = await startGateway({ gemini: { plugin: 'gemini', baseUrl: UPSTREAM, ...options } }).then(
        async (gw) => {
          await gw.close();
          return undefined;
        },
        (e: unknown) => e,
      );
      expect((error as Error | undefined)?.message).to.match(/platforms\.gemini \(plugin "gemini"\)/);
      expect((error as Error).message).to.match(field);
    });
  }
});
