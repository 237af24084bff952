import { expect } from 'chai';
import { CODECS, type UpstreamRequest } from '@gateway/core';
import { toPoolRequest, type PoolRequestSettings } from '../src/to-pool-request';
import { silentLog } from './pool-test-kit';

const SETTINGS: PoolRequestSettings = { premiumModels: new Set(['gpt-5']), thinking: { reasoning_effort: 'high' } };
const ctx = { log: silentLog };

function passthrough(json: Record<string, unknown>): UpstreamRequest {
  const body = Buffer.from(JSON.stringify(json, null, 2));
  return { mode: 'passthrough', format: 'chat-completions', method: 'POST', path: '/v1/chat/completions', headers: {}, body, json, stream: false };
}

function translated(client: Record<string, unknown>): UpstreamRequest {
  const unified = CODECS.messages.decodeRequest(client);
  return { mode: 'translate', format: 'chat-completions', method: 'POST', path: '/v1/chat/completions', headers: {}, unified, stream: false };
}

const messages = [{ role: 'user', content: 'hi' }];

describe('token-pool toPoolRequest', () => {
  describe('native chat completions', () => {
    it('leaves the client bytes untouched when the model needs no rewriting', () => {
      const request = passthrough({ model: 'gpt-4.1', messages, unknown_field: 1 });
      expect(toPoolRequest(request, SETTINGS, ctx)).to.equal(request);
    });

    it('strips -thinking and merges the thinking fields, sending JSON instead of the raw bytes', () => {
      const shaped = toPoolRequest(passthrough({ model: 'gpt-4.1-thinking', messages, unknown_field: 1 }), SETTINGS, ctx);
      expect(shaped.body).to.equal(undefined);
      expect(shaped.json).to.deep.equal({ model: 'gpt-4.1', messages, unknown_field: 1, reasoning_effort: 'high' });
    });

    it("keeps the client's own reasoning setting over the -thinking default", () => {
      const shaped = toPoolRequest(passthrough({ model: 'gpt-4.1-thinking', messages, reasoning_effort: 'low' }), SETTINGS, ctx);
      expect(shaped.json).to.deep.equal({ model: 'gpt-4.1', messages, reasoning_effort: 'low' });
    });

    it('merges configured thinking fields', () => {
      const settings = { ...SETTINGS, thinking: { thinking: { type: 'enabled' }, reasoning_effort: 'medium' } };
      const shaped = toPoolRequest(passthrough({ model: 'm-thinking', messages }), settings, ctx);
      expect(shaped.json).to.deep.equal({ model: 'm', messages, thinking: { type: 'enabled' }, reasoning_effort: 'medium' });
    });

    it("adds no thinking field to a -thinking model the client switched off itself (reasoning_effort: none)", () => {
      const settings = { ...SETTINGS, thinking: { enable_thinking: true, reasoning_effort: 'high' } };
      const shaped = toPoolRequest(passthrough({ model: 'qwen3-thinking', messages, reasoning_effort: 'none' }), settings, ctx);
      expect(shaped.json).to.deep.equal({ model: 'qwen3', messages, reasoning_effort: 'none' });
    });

    it('sends a model the upstream lists under a suffixed name as it is, bytes untouched', () => {
      const request = passthrough({ model: 'kimi-k2-thinking', messages });
      expect(toPoolRequest(request, { ...SETTINGS, upstreamModels: new Set(['kimi-k2', 'kimi-k2-thinking']) }, ctx)).to.equal(request);
    });

    it('strips -max without adding thinking fields', () => {
      const shaped = toPoolRequest(passthrough({ model: 'gpt-4.1-max', messages }), SETTINGS, ctx);
      expect(shaped.json).to.deep.equal({ model: 'gpt-4.1', messages });
    });
  });

  describe('translated formats', () => {
    it('encodes the chat body with the stripped model and the thinking fields', () => {
      const shaped = toPoolRequest(translated({ model: 'gpt-4.1-max-thinking', max_tokens: 100, messages }), SETTINGS, ctx);
      expect(shaped.json).to.include({ model: 'gpt-4.1', reasoning_effort: 'high' });
      expect(shaped.json?.messages).to.deep.equal(messages);
      expect(shaped.unified?.model).to.equal('gpt-4.1');
    });

    it("keeps the client's own thinking budget over the default", () => {
      const shaped = toPoolRequest(translated({ model: 'gpt-4.1-thinking', max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 1024 }, messages }), SETTINGS, ctx);
      expect(shaped.json?.reasoning_effort).to.not.equal('high');
      expect(shaped.json?.reasoning_effort).to.be.a('string');
    });

    it('keeps reasoning off when the client switched it off: reasoning_effort none, no thinking field merged', () => {
      const settings = { ...SETTINGS, thinking: { enable_thinking: true, reasoning_effort: 'high' } };
      const shaped = toPoolRequest(translated({ model: 'gpt-4.1-thinking', max_tokens: 100, thinking: { type: 'disabled' }, messages }), settings, ctx);
      expect(shaped.json).to.include({ model: 'gpt-4.1', reasoning_effort: 'none' });
      expect(shaped.json).to.not.have.property('enable_thinking');
    });

    it('encodes a plain model without thinking fields', () => {
      const shaped = toPoolRequest(translated({ model: 'gpt-4.1', max_tokens: 100, messages }), SETTINGS, ctx);
      expect(shaped.json).to.include({ model: 'gpt-4.1' });
      expect(shaped.json).to.not.have.property('reasoning_effort');
    });
  });
});
