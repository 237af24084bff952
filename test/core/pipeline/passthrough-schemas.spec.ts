import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import nock from 'nock';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { passthroughValidator } from '../../../core/pipeline/passthrough-schemas';
import { FIXTURES_DIR, fixtureJson } from '../../helpers/fixtures';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../helpers/start-gateway';

/** The message of the GW_INVALID_REQUEST the validator throws, or undefined when the body passes. */
function rejection(validate: (body: unknown) => unknown, body: unknown): string | undefined {
  try {
    validate(body);
    return undefined;
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    expect(error.code).to.equal('GW_INVALID_REQUEST');
    return error.message;
  }
}

const CONTENTS = [{ role: 'user', parts: [{ text: 'count me' }] }];

describe('passthroughValidator: Gemini generation', () => {
  const validate = passthroughValidator('gemini', 'gemini.generateContent');

  const rejected: Array<[string, unknown, string]> = [
    ['an empty body', {}, 'contents: is required'],
    ['a body with only generation settings', { generationConfig: { temperature: 0 } }, 'contents: is required'],
    ['contents that are not an array', { contents: 'hi' }, 'contents: must be array'],
    ['empty contents', { contents: [] }, 'contents: must NOT have fewer than 1 items'],
    ['a content that is not an object', { contents: ['hi'] }, 'contents[0]: must be object'],
    ['a countTokens wrapper in place of contents', { generateContentRequest: { contents: CONTENTS } }, 'contents: is required'],
  ];
  for (const [what, body, message] of rejected) {
    it(`rejects ${what}: "${message}"`, () => {
      expect(rejection(validate, body)).to.equal(message);
    });
  }

  const requests = readdirSync(`${FIXTURES_DIR}/gemini`).filter((name) => name.startsWith('request-'));
  for (const name of requests) {
    it(`passes the fixture ${name}`, () => {
      expect(rejection(validate, fixtureJson(`gemini/${name}`))).to.equal(undefined);
    });
  }

  it('is the one streamGenerateContent uses too', () => {
    expect(passthroughValidator('gemini', 'gemini.streamGenerateContent')).to.equal(validate);
  });
});

describe('passthroughValidator: Gemini countTokens', () => {
  const validate = passthroughValidator('gemini', 'gemini.countTokens');

  const rejected: Array<[string, unknown, string]> = [
    ['an empty body', {}, 'contents: is required'],
    ['a content that is not an object', { contents: ['hi'] }, 'contents[0]: must be object'],
    ['a countTokens wrapper without contents', { generateContentRequest: { model: 'models/gemini-2.5-flash' } }, 'generateContentRequest.contents: is required'],
    ['a snake_case countTokens wrapper without contents', { generate_content_request: {} }, 'generate_content_request.contents: is required'],
  ];
  for (const [what, body, message] of rejected) {
    it(`rejects ${what}: "${message}"`, () => {
      expect(rejection(validate, body)).to.equal(message);
    });
  }

  const countTokens: Array<[string, unknown]> = [
    ['plain contents', { contents: CONTENTS }],
    ['empty contents', { contents: [] }],
    ['a generateContentRequest wrapper', { generateContentRequest: { model: 'models/gemini-2.5-flash', contents: CONTENTS } }],
    ['a snake_case generate_content_request wrapper', { generate_content_request: { contents: CONTENTS } }],
  ];
  for (const [what, body] of countTokens) {
    it(`passes a countTokens body with ${what}`, () => {
      expect(rejection(validate, body)).to.equal(undefined);
    });
  }
});

describe('gemini native passthrough: a body without a turn', () => {
  const UPSTREAM = 'https://gemini.upstream.test';
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: 'AIzaSyA-upstream-key-000000000000000001' }] } });
  });
  after(() => gw.close());

  const cases: Array<[method: string, body: string, message: string]> = [
    ['generateContent', '{}', 'contents: is required'],
    ['streamGenerateContent', '{}', 'contents: is required'],
    ['countTokens', '{}', 'contents: is required'],
    ['generateContent', '{"contents":[]}', 'contents: must NOT have fewer than 1 items'],
  ];
  for (const [method, body, message] of cases) {
    it(`answers :${method} with ${body} by a 400 in the Gemini shape naming contents, without an upstream call`, async () => {
      const upstream = nock(UPSTREAM).post(/.*/).query(true).reply(200, {});
      const res = await fetch(`${gw.url}/gemini/v1beta/models/gemini-2.5-flash:${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
        body,
      });
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } });
      expect(upstream.isDone()).to.equal(false);
    });
  }
});
