import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import nock from 'nock';
import { fixtureBytes, fixtureJson } from '../../../test/helpers/fixtures';
import { replyCapturing, TINY_PNG } from '../../../test/helpers/multipart';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';

const UPSTREAM = 'http://openai-images.upstream.test';
const UPSTREAM_KEY = 'sk-upstream-images-key-000000000001';
const PNG_B64 = TINY_PNG.toString('base64');
const AUTH = { authorization: `Bearer ${TEST_LICENSE}` };

interface ImageAnswer {
  created: number;
  data: Array<{ b64_json?: string; url?: string; revised_prompt?: string }>;
  usage?: unknown;
}

function postJson(gw: RunningGateway, path: string, body: unknown, platform = 'openai'): Promise<Response> {
  return fetch(`${gw.url}/${platform}${path}`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

function postForm(gw: RunningGateway, path: string, form: FormData): Promise<Response> {
  return fetch(`${gw.url}/openai${path}`, { method: 'POST', headers: AUTH, body: form });
}

function png(): Blob {
  return new Blob([TINY_PNG], { type: 'image/png' });
}

describe('openai plugin: images (nock replays)', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway(
      { openai: { plugin: 'openai', baseUrl: UPSTREAM, credentials: [{ apiKey: UPSTREAM_KEY }] }, plain: { plugin: 'openai', baseUrl: UPSTREAM, credentials: [{ apiKey: UPSTREAM_KEY }], imageBase64: 'plain' } },
      { limits: { jsonBodyBytes: 1024 * 1024, fileBytes: 4096 } },
    );
  });
  after(() => gw.close());

  it('forwards a generation as JSON with the key swapped and answers b64_json as a data URI', async () => {
    const request = fixtureJson('openai-images/request-generation.json');
    let seen: unknown;
    const upstream = nock(UPSTREAM)
      .post('/v1/images/generations')
      .matchHeader('authorization', `Bearer ${UPSTREAM_KEY}`)
      .reply(200, (_uri, body) => {
        seen = body;
        return fixtureBytes('openai-images/response-b64.json');
      }, { 'content-type': 'application/json' });
    const res = await postJson(gw, '/v1/images/generations', request);
    expect(res.status).to.equal(200);
    const body = (await res.json()) as ImageAnswer & Record<string, unknown>;
    expect(seen).to.deep.equal(request);
    expect(body.data[0].b64_json).to.equal(`data:image/png;base64,${PNG_B64}`);
    const fixture = fixtureJson('openai-images/response-b64.json');
    expect(body).to.deep.include({ created: fixture.created, usage: fixture.usage, background: 'transparent', output_format: 'png', quality: 'low', size: '1024x1024' });
    expect(upstream.isDone()).to.equal(true);
  });

  it('answers plain base64 on a platform configured with imageBase64: plain', async () => {
    nock(UPSTREAM).post('/v1/images/generations').reply(200, fixtureJson('openai-images/response-b64.json'));
    const body = (await (await postJson(gw, '/v1/images/generations', { prompt: 'x', model: 'gpt-image-1' }, 'plain')).json()) as ImageAnswer;
    expect(body.data[0].b64_json).to.equal(PNG_B64);
  });

  it('sends DALL·E models response_format b64_json by default (their own default is url)', async () => {
    let seen: Record<string, unknown> = {};
    nock(UPSTREAM).post('/v1/images/generations').reply(200, (_uri, body) => {
      seen = body as Record<string, unknown>;
      return { created: 1, data: [{ b64_json: PNG_B64, revised_prompt: 'revised' }] };
    });
    const res = await postJson(gw, '/v1/images/generations', { model: 'dall-e-3', prompt: 'x', quality: 'hd', style: 'natural' });
    const body = (await res.json()) as ImageAnswer;
    expect(seen).to.deep.equal({ model: 'dall-e-3', prompt: 'x', quality: 'hd', style: 'natural', response_format: 'b64_json' });
    expect(body.data[0]).to.deep.equal({ b64_json: `data:image/png;base64,${PNG_B64}`, revised_prompt: 'revised' });
  });

  it('passes a DALL·E url answer through as it came', async () => {
    let seen: Record<string, unknown> = {};
    nock(UPSTREAM).post('/v1/images/generations').reply(200, (_uri, body) => {
      seen = body as Record<string, unknown>;
      return fixtureBytes('openai-images/response-url.json');
    });
    const res = await postJson(gw, '/v1/images/generations', fixtureJson('openai-images/request-generation-dalle3.json'));
    expect(seen.response_format).to.equal('url');
    expect(((await res.json()) as ImageAnswer).data).to.deep.equal(fixtureJson<ImageAnswer>('openai-images/response-url.json').data);
  });

  it('drops response_format for GPT image models and serves url answers from the gateway', async () => {
    let seen: Record<string, unknown> = {};
    nock(UPSTREAM).post('/v1/images/generations').reply(200, (_uri, body) => {
      seen = body as Record<string, unknown>;
      return fixtureJson('openai-images/response-b64.json');
    });
    const res = await postJson(gw, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'x', response_format: 'url' });
    expect(seen).not.to.have.property('response_format');
    const body = (await res.json()) as ImageAnswer;
    const url = body.data[0].url ?? '';
    expect(body.data[0]).not.to.have.property('b64_json');
    expect(url.startsWith(`${gw.url}/files/file_`)).to.equal(true);
    const file = await fetch(url);
    expect(file.headers.get('content-type')).to.equal('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(TINY_PNG)).to.equal(true);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['response_format', { response_format: 'jpeg' }, 'response_format'],
    ['background', { background: 'green' }, 'background'],
    ['quality', { quality: 'best' }, 'quality'],
    ['size', { size: '1024*1024' }, 'size'],
  ];
  for (const [name, patch, field] of invalid) {
    it(`answers 400 naming ${name} without calling the upstream`, async () => {
      const upstream = nock(UPSTREAM).post('/v1/images/generations').reply(200, {});
      const res = await postJson(gw, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'x', ...patch });
      expect(res.status).to.equal(400);
      const body = (await res.json()) as { error: { message: string; param: string; type: string } };
      expect(body.error.param).to.equal(field);
      expect(body.error.message).to.match(new RegExp(`^${field}:`));
      expect(body.error.type).to.equal('invalid_request_error');
      expect(upstream.isDone()).to.equal(false);
    });
  }

  it('answers 400 for an enum violation in a multipart form too', async () => {
    const form = new FormData();
    form.append('prompt', 'x');
    form.append('quality', 'ultra');
    form.append('image[]', png(), 'a.png');
    const res = await postForm(gw, '/v1/images/edits', form);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).to.equal('quality');
  });

  it('re-encodes a multipart edit with several image[] files and its fields, bytes intact', async () => {
    const upstream = replyCapturing(nock(UPSTREAM).post('/v1/images/edits'), fixtureJson('openai-images/response-b64.json'));
    const other = Buffer.concat([TINY_PNG, Buffer.from([0, 1, 2, 255])]);
    const form = new FormData();
    form.append('model', 'gpt-image-1');
    form.append('prompt', 'Put both items in one gift basket');
    form.append('image[]', png(), 'lotion.png');
    form.append('image[]', new Blob([other], { type: 'image/png' }), 'soap.png');
    form.append('mask', png(), 'mask.png');
    form.append('n', '2');
    form.append('size', '1024x1024');
    const res = await postForm(gw, '/v1/images/edits', form);
    expect(res.status).to.equal(200);
    expect(upstream.scope.isDone()).to.equal(true);
    expect(upstream.type()).to.match(/^multipart\/form-data; boundary=/);
    const parsed = await upstream.sent();
    expect(parsed.fields).to.deep.equal([['model', 'gpt-image-1'], ['prompt', 'Put both items in one gift basket'], ['n', '2'], ['size', '1024x1024']]);
    expect(parsed.files.map((file) => [file.field, file.filename, file.type])).to.deep.equal([
      ['image[]', 'lotion.png', 'image/png'],
      ['image[]', 'soap.png', 'image/png'],
      ['mask', 'mask.png', 'image/png'],
    ]);
    expect(parsed.files[1].data.equals(other)).to.equal(true);
    expect(((await res.json()) as ImageAnswer).data[0].b64_json).to.match(/^data:image\/png;base64,/);
  });

  it('sends an edit whose images are URLs or base64 as the JSON images form', async () => {
    let seen: Record<string, unknown> = {};
    nock(UPSTREAM).post('/v1/images/edits').reply(200, (_uri, body) => {
      seen = body as Record<string, unknown>;
      return fixtureJson('openai-images/response-b64.json');
    });
    const res = await postJson(gw, '/v1/images/edits', { model: 'gpt-image-1', prompt: 'blue', image: ['https://example.com/a.png', PNG_B64], size: '1024x1024' });
    expect(res.status).to.equal(200);
    expect(seen).to.deep.equal({ model: 'gpt-image-1', prompt: 'blue', size: '1024x1024', images: [{ image_url: 'https://example.com/a.png' }, { image_url: `data:image/png;base64,${PNG_B64}` }] });
  });

  it('sends a DALL·E 2 edit whose image and mask are base64 as the multipart form (its JSON form is the GPT image models\' only)', async () => {
    const upstream = replyCapturing(nock(UPSTREAM).post('/v1/images/edits'), fixtureJson('openai-images/response-b64.json'));
    const res = await postJson(gw, '/v1/images/edits', { model: 'dall-e-2', prompt: 'blue', image: `data:image/png;base64,${PNG_B64}`, mask: PNG_B64 });
    expect(res.status).to.equal(200);
    expect(upstream.type()).to.match(/^multipart\/form-data; boundary=/);
    const parsed = await upstream.sent();
    expect(parsed.fields).to.deep.equal([['model', 'dall-e-2'], ['prompt', 'blue'], ['response_format', 'b64_json']]);
    expect(parsed.files.map((file) => [file.field, file.filename, file.type])).to.deep.equal([
      ['image', 'image.png', 'image/png'],
      ['mask', 'mask.png', 'image/png'],
    ]);
    expect(parsed.files.every((file) => file.data.equals(TINY_PNG))).to.equal(true);
  });

  it('forwards the fixture JSON edit unchanged', async () => {
    const request = fixtureJson('openai-images/request-edit-json.json');
    let seen: unknown;
    nock(UPSTREAM).post('/v1/images/edits').reply(200, (_uri, body) => {
      seen = body;
      return fixtureJson('openai-images/response-b64.json');
    });
    expect((await postJson(gw, '/v1/images/edits', request)).status).to.equal(200);
    expect(seen).to.deep.equal(request);
  });

  it('answers 413 for a file over the configured limit, without calling the upstream', async () => {
    const upstream = nock(UPSTREAM).post('/v1/images/edits').reply(200, {});
    const form = new FormData();
    form.append('prompt', 'x');
    form.append('image', new Blob([Buffer.alloc(5000, 1)], { type: 'image/png' }), 'big.png');
    const res = await postForm(gw, '/v1/images/edits', form);
    expect(res.status).to.equal(413);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).to.include('image');
    expect(upstream.isDone()).to.equal(false);
  });

  it('answers 400 naming a file sent under a field an edit does not take', async () => {
    const form = new FormData();
    form.append('prompt', 'x');
    form.append('picture', png(), 'p.png');
    const res = await postForm(gw, '/v1/images/edits', form);
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { error: { message: string; param: string } };
    expect(body.error.param).to.equal('picture');
  });

  it('maps an upstream error to the OpenAI envelope with its status, message and code', async () => {
    nock(UPSTREAM).post('/v1/images/generations').reply(400, {
      error: { message: 'Your request was rejected as a result of our safety system.', type: 'invalid_request_error', param: null, code: 'moderation_blocked' },
    });
    const res = await postJson(gw, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'x' });
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { error: { message: string; code: string } };
    expect(body.error).to.deep.include({ message: 'Your request was rejected as a result of our safety system.', code: 'moderation_blocked' });
  });

  it('answers an error envelope in a 200 (a compatible service refusing the prompt) as that error, its message and code kept', async () => {
    nock(UPSTREAM).post('/v1/images/generations').reply(200, { error: { message: 'NSFW content detected', type: 'invalid_request_error', code: 'content_policy_violation' } });
    const res = await postJson(gw, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'x' });
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: Record<string, unknown> }).error).to.deep.include({ message: 'NSFW content detected', code: 'content_policy_violation' });
  });

  it('answers 502 when the upstream answer has no data list, or an empty one', async () => {
    nock(UPSTREAM).post('/v1/images/generations').reply(200, { created: 1 });
    expect((await postJson(gw, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'x' })).status).to.equal(502);
    nock(UPSTREAM).post('/v1/images/generations').reply(200, { created: 1, data: [] });
    const empty = await postJson(gw, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'x' });
    expect(empty.status).to.equal(502);
    expect(((await empty.json()) as { error: { message: string } }).error.message).to.include('its data list is empty');
  });

  it('answers 502 naming the entry when an upstream image is neither base64 nor a url, in every response format', async () => {
    const cases: Array<[string, unknown[], string]> = [
      ['empty object first', [{}, 5, { b64_json: 7 }], 'data[0]'],
      ['number after a good image', [{ b64_json: PNG_B64 }, 5], 'data[1]'],
      ['b64_json not a string', [{ b64_json: 7 }], 'data[0]'],
      ['b64_json not base64', [{ b64_json: '%%%notbase64%%%' }], 'data[0]'],
    ];
    for (const [name, items, entry] of cases) {
      for (const responseFormat of ['b64_json', 'url']) {
        nock(UPSTREAM).post('/v1/images/generations').reply(200, { created: 1, data: items });
        const res = await postJson(gw, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'x', response_format: responseFormat });
        expect(res.status, `${name}, ${responseFormat}`).to.equal(502);
        const error = ((await res.json()) as { error: { message: string; code: string } }).error;
        expect(error.code, name).to.equal('gw_upstream_bad_response');
        expect(error.message, name).to.contain(`malformed image: ${entry}`);
      }
    }
  });

  it('passes a streamed generation through event by event', async () => {
    const sse = fixtureBytes('openai-images/stream-generation.sse');
    nock(UPSTREAM).post('/v1/images/generations').matchHeader('accept', 'text/event-stream').reply(200, sse, { 'content-type': 'text/event-stream' });
    const res = await postJson(gw, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'x', stream: true, partial_images: 1 });
    expect(res.headers.get('content-type')).to.equal('text/event-stream');
    expect(Buffer.from(await res.arrayBuffer()).equals(sse)).to.equal(true);
  });

  it('masks the key a streamed generation echoes, as any relayed stream does', async () => {
    const event = `event: error\ndata: ${JSON.stringify({ type: 'error', error: { message: `Incorrect API key provided: ${UPSTREAM_KEY}`, type: 'invalid_request_error', code: 'invalid_api_key' } })}\n\n`;
    nock(UPSTREAM).post('/v1/images/generations').reply(200, event, { 'content-type': 'text/event-stream' });
    const res = await postJson(gw, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'x', stream: true });
    const text = await res.text();
    expect(text).to.include('Incorrect API key provided').and.not.include(UPSTREAM_KEY);
  });

  it('ends a streamed generation cut after its first event with an error event, not a dropped connection', async () => {
    const partial = 'event: image_generation.partial_image\ndata: {"type":"image_generation.partial_image","b64_json":"AAAA","partial_image_index":0}\n\n';
    nock(UPSTREAM)
      .post('/v1/images/generations')
      .reply(200, () => {
        const body = new PassThrough();
        body.write(partial);
        setTimeout(() => body.destroy(new Error('socket hang up')), 20);
        return body;
      }, { 'content-type': 'text/event-stream' });
    const res = await postJson(gw, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'x', stream: true, partial_images: 1 });
    const text = await res.text();
    expect(text.startsWith(partial)).to.equal(true);
    const last = text.slice(partial.length);
    expect(last).to.match(/^event: error\ndata: /);
    expect(JSON.parse(last.split('\n')[1].slice('data: '.length))).to.have.nested.property('error.message');
  });

  it('answers 502 naming the type when a streamed request gets JSON instead of an event stream', async () => {
    nock(UPSTREAM).post('/v1/images/edits').reply(200, fixtureBytes('openai-images/response-b64.json'), { 'content-type': 'application/json' });
    const res = await postJson(gw, '/v1/images/edits', { model: 'gpt-image-1', prompt: 'x', images: [{ image_url: `data:image/png;base64,${PNG_B64}` }], stream: true });
    expect(res.status).to.equal(502);
    const body = (await res.json()) as { error: { message: string; code: string } };
    expect(body.error.code).to.equal('gw_upstream_bad_response');
    expect(body.error.message).to.contain('application/json');
  });
});
