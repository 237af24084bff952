import { expect } from 'chai';
import nock from 'nock';
import { fixtureJson } from '../../../test/helpers/fixtures';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { startRawUpstream } from '../../../test/helpers/start-raw-upstream';
import { fromGenerateContentImages, fromImagenPredictions } from '../src/from-gemini-images';
import { KEY_A, KEY_B, postJson, SAFETY_OFF, UPSTREAM } from './helpers';

type ImageFixture = { candidates: Array<{ content: { parts: Array<{ inlineData?: { data: string } }> } }> };
const IMAGE_RESPONSE = fixtureJson<ImageFixture>('gemini/response-image.json');
const IMAGE_BASE64 = IMAGE_RESPONSE.candidates[0].content.parts[1].inlineData?.data ?? '';
const PREDICT = fixtureJson<{ predictions: Array<{ bytesBase64Encoded?: string }> }>('gemini-imagen/response-predict.json');

/** Answers the next flash-image generateContent call with the image fixture; `parts` is what it was sent. */
function captureImageParts(): { parts?: unknown } {
  const sent: { parts?: unknown } = {};
  nock(UPSTREAM)
    .post('/v1beta/models/gemini-2.5-flash-image:generateContent')
    .reply((_uri, body) => {
      sent.parts = (body as { contents: Array<{ parts: unknown }> }).contents[0].parts;
      return [200, IMAGE_RESPONSE];
    });
  return sent;
}

describe('gemini plugin: images', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({
      gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }, { apiKey: KEY_B }] },
      plain: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }], imageBase64: 'plain', imageModel: 'imagen-4.0-generate-001' },
    });
  });
  after(() => gw.close());
  afterEach(() => nock.cleanAll());

  it('a generation goes to generateContent with IMAGE modality and the nearest aspect ratio (fixture gemini/request-image-generation.json)', async () => {
    let seen: Record<string, unknown> | undefined;
    nock(UPSTREAM)
      .post('/v1beta/models/gemini-2.5-flash-image:generateContent')
      .reply((_uri, body) => {
        seen = body as Record<string, unknown>;
        return [200, IMAGE_RESPONSE];
      });
    const res = await postJson(`${gw.url}/gemini/v1/images/generations`, { model: 'gemini-2.5-flash-image', prompt: 'A single orange pixel on a transparent background.', size: '1024x1024' });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { created: number; data: Array<{ b64_json: string }>; usage: unknown };
    expect(body.data).to.deep.equal([{ b64_json: `data:image/png;base64,${IMAGE_BASE64}` }]);
    expect(body.usage).to.deep.equal({ input_tokens: 11, input_tokens_details: { image_tokens: 0, text_tokens: 11 }, output_tokens: 1297, total_tokens: 1308 });
    expect(seen).to.deep.equal({ ...fixtureJson('gemini/request-image-generation.json'), safetySettings: SAFETY_OFF });
  });

  it('a model name that cannot go in a URL (a lone surrogate) is a 400 naming model on every endpoint that puts it there', async () => {
    for (const [path, body] of [
      ['/gemini/v1/images/generations', { model: 'gemini-\ud800', prompt: 'x' }],
      ['/gemini/v1/chat/completions', { model: 'gemini-\ud800', messages: [{ role: 'user', content: 'hi' }] }],
      ['/gemini/v1/videos', { model: 'veo-\ud800', prompt: 'x' }],
    ] as const) {
      const res = await postJson(`${gw.url}${path}`, body);
      expect(res.status, path).to.equal(400);
      expect(((await res.json()) as { error: { param: string } }).error.param, path).to.equal('model');
    }
  });

  it('n images are n generateContent calls, round-robin over the keys', async () => {
    const keys: string[] = [];
    const scope = nock(UPSTREAM)
      .post(/:generateContent$/)
      .times(3)
      .reply(function () {
        keys.push(String(this.req.headers['x-goog-api-key']));
        return [200, IMAGE_RESPONSE];
      });
    const res = await postJson(`${gw.url}/gemini/v1/images/generations`, { model: 'gemini-2.5-flash-image', prompt: 'x', n: 3 });
    expect(((await res.json()) as { data: unknown[] }).data).to.have.length(3);
    expect(scope.isDone()).to.equal(true);
    expect(new Set(keys)).to.deep.equal(new Set([KEY_A, KEY_B]));
  });

  it('n images: the first call that fails aborts the others, which the answer could no longer use (sync and async)', async () => {
    const upstream = await startRawUpstream();
    const raw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: upstream.url, credentials: [{ apiKey: KEY_A }] } });
    try {
      for (const async of [false, true]) {
        let calls = 0;
        const closedEarly: boolean[] = [];
        upstream.handle((_req, res) => {
          calls += 1;
          if (calls === 1) {
            setTimeout(() => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } })), 50);
            return;
          }
          // Held: answered only if nobody aborts it first.
          const timer = setTimeout(() => res.end(JSON.stringify(IMAGE_RESPONSE)), 10_000);
          res.on('close', () => {
            clearTimeout(timer);
            closedEarly.push(!res.writableFinished);
          });
        });
        const res = await postJson(`${raw.url}/gemini/v1/images/generations`, { model: 'gemini-2.5-flash-image', prompt: 'x', n: 3, ...(async ? { async: true } : {}) });
        const started = Date.now();
        if (!async) expect(res.status).to.equal(500);
        while (closedEarly.length < 2 && Date.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(calls, `async=${async}`).to.equal(3);
        expect(closedEarly, `async=${async}`).to.deep.equal([true, true]);
      }
    } finally {
      await raw.close();
      await upstream.close();
    }
  });

  it('an imagen model goes to :predict; the filtered entry and the Positive Prompt entry are not images', async () => {
    let seen: Record<string, unknown> | undefined;
    nock(UPSTREAM)
      .post('/v1beta/models/imagen-4.0-generate-001:predict')
      .reply((_uri, body) => {
        seen = body as Record<string, unknown>;
        return [200, PREDICT];
      });
    const res = await postJson(`${gw.url}/gemini/v1/images/generations`, { model: 'imagen-4.0-generate-001', prompt: 'A single orange pixel', n: 2, size: '1792x1024', output_format: 'png' });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { data: Array<{ b64_json: string }> };
    expect(body.data).to.deep.equal([{ b64_json: `data:image/png;base64,${PREDICT.predictions[0].bytesBase64Encoded}` }]);
    expect(seen).to.deep.equal({
      instances: [{ prompt: 'A single orange pixel' }],
      parameters: { sampleCount: 2, aspectRatio: '16:9', outputOptions: { mimeType: 'image/png' }, includeRaiReason: true },
    });
  });

  it('the operator default model and plain base64 apply', async () => {
    nock(UPSTREAM).post('/v1beta/models/imagen-4.0-generate-001:predict').reply(200, PREDICT);
    const res = await postJson(`${gw.url}/plain/v1/images/generations`, { prompt: 'x' });
    expect(((await res.json()) as { data: Array<{ b64_json: string }> }).data[0].b64_json).to.equal(PREDICT.predictions[0].bytesBase64Encoded);
  });

  it('only filtered predictions: 400 with the filter reason', async () => {
    nock(UPSTREAM).post(/:predict$/).reply(200, { predictions: PREDICT.predictions.slice(1) });
    const res = await postJson(`${gw.url}/gemini/v1/images/generations`, { model: 'imagen-4.0-generate-001', prompt: 'x' });
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.contain('All images were filtered out');
  });

  it('an edit sends multipart files, then JSON images, as inlineData parts', async () => {
    const sent = captureImageParts();
    const form = new FormData();
    form.append('prompt', 'make it blue');
    form.append('model', 'gemini-2.5-flash-image');
    form.append('image[]', new Blob([Buffer.from(IMAGE_BASE64, 'base64')], { type: 'image/png' }), 'a.png');
    form.append('response_format', 'b64_json');
    const res = await fetch(`${gw.url}/gemini/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}` }, body: form });
    expect(res.status).to.equal(200);
    expect(sent.parts).to.deep.equal([{ text: 'make it blue' }, { inlineData: { mimeType: 'image/png', data: IMAGE_BASE64 } }]);
  });

  it('imagen cannot edit, a mask and file ids are refused, all before any upstream call', async () => {
    const image = `data:image/png;base64,${IMAGE_BASE64}`;
    const cases: Array<[unknown, RegExp]> = [
      [{ model: 'imagen-4.0-generate-001', prompt: 'x', image }, /Imagen models cannot edit/],
      [{ model: 'gemini-2.5-flash-image', prompt: 'x', image, mask: image }, /mask/],
      [{ model: 'gemini-2.5-flash-image', prompt: 'x', images: [{ file_id: 'file-1' }] }, /file ids are not supported/],
    ];
    for (const [body, message] of cases) {
      const res = await postJson(`${gw.url}/gemini/v1/images/edits`, body);
      expect(res.status).to.equal(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).to.match(message);
    }
  });

  it('with async=true an invalid request is the same 400/415 on the POST, not an accepted task', async () => {
    const image = `data:image/png;base64,${IMAGE_BASE64}`;
    const cases: Array<[string, unknown, number, RegExp]> = [
      ['imagen edit', { model: 'imagen-4.0-generate-001', prompt: 'x', image }, 400, /Imagen models cannot edit/],
      ['file id', { model: 'gemini-2.5-flash-image', prompt: 'x', images: [{ file_id: 'file-1' }] }, 400, /file ids are not supported/],
      ['gif data URI', { model: 'gemini-2.5-flash-image', prompt: 'x', image: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' }, 415, /image\/gif is not an image format/],
      ['private URL', { model: 'gemini-2.5-flash-image', prompt: 'x', image: 'http://169.254.169.254/latest/meta-data' }, 400, /refused to fetch media/],
    ];
    for (const [name, body, status, message] of cases) {
      const res = await postJson(`${gw.url}/gemini/v1/images/edits?async=true`, body);
      expect(res.status, name).to.equal(status);
      expect(((await res.json()) as { error: { message: string } }).error.message, name).to.match(message);
    }
  });

  it('an async task\'s failure quoting the key that made the call is stored and answered masked, as the same failure made at once is', async () => {
    // The model answers text instead of an image, and the text holds the key (an upstream echo no classifier saw).
    const refusal = { candidates: [{ content: { role: 'model', parts: [{ text: `I cannot, key ${KEY_A}` }] }, finishReason: 'STOP' }] };
    nock(UPSTREAM).post(/:generateContent$/).times(2).reply(200, refusal);
    const now = await postJson(`${gw.url}/plain/v1/images/generations`, { model: 'gemini-2.5-flash-image', prompt: 'x' });
    const nowMessage = ((await now.json()) as { error: { message: string } }).error.message;
    const accepted = (await (await postJson(`${gw.url}/plain/v1/images/generations?async=true`, { model: 'gemini-2.5-flash-image', prompt: 'x' })).json()) as { task_id: string };
    let task: { status: string; error: { message: string } | null } = { status: 'queued', error: null };
    for (let i = 0; i < 100 && task.status !== 'failed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      task = (await (await fetch(`${gw.url}/plain/v1/images/${accepted.task_id}`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } })).json()) as typeof task;
    }
    expect(task.status).to.equal('failed');
    expect(nowMessage).to.contain('I cannot, key').and.not.contain(KEY_A);
    expect(task.error?.message).to.contain('I cannot, key').and.not.contain(KEY_A);
    expect(task.error?.message).to.contain(nowMessage);
  });

  it('an input that is not an image Gemini takes is a 415 naming its field as the client did, whether file, base64 or octet-stream', async () => {
    const cases: Array<[string, () => RequestInit['body'], string]> = [
      ['pdf data URI', () => JSON.stringify({ model: 'gemini-2.5-flash-image', prompt: 'x', image: `data:application/pdf;base64,${Buffer.from('%PDF-1.7').toString('base64')}` }), 'image'],
      ['gif data URI, the second of images', () => JSON.stringify({ model: 'gemini-2.5-flash-image', prompt: 'x', images: [{ image_url: `data:image/png;base64,${IMAGE_BASE64}` }, { image_url: `data:image/gif;base64,${Buffer.from('GIF89a').toString('base64')}` }] }), 'images[1].image_url'],
      ['gif data URI after a file, in a form', () => {
        const form = new FormData();
        form.append('prompt', 'x');
        form.append('image[]', new Blob([Buffer.from(IMAGE_BASE64, 'base64')], { type: 'image/png' }), 'a.png');
        form.append('image', `data:image/gif;base64,${Buffer.from('GIF89a').toString('base64')}`);
        return form;
      }, 'image'],
      ['text file', () => {
        const form = new FormData();
        form.append('prompt', 'x');
        form.append('image', new Blob([Buffer.from('<b>hi</b>')], { type: 'text/plain' }), 'a.txt');
        return form;
      }, 'image'],
      ['octet-stream file of mp4 bytes, the second image', () => {
        const form = new FormData();
        form.append('prompt', 'x');
        form.append('image[]', new Blob([Buffer.from(IMAGE_BASE64, 'base64')], { type: 'image/png' }), 'a.png');
        form.append('image[]', new Blob([Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.alloc(64)])], { type: 'application/octet-stream' }), 'b.bin');
        return form;
      }, 'image[1]'],
    ];
    for (const [name, body, param] of cases) {
      const json = typeof body() === 'string';
      const res = await fetch(`${gw.url}/gemini/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, ...(json ? { 'content-type': 'application/json' } : {}) }, body: body() });
      expect(res.status, name).to.equal(415);
      const error = ((await res.json()) as { error: { param: string; message: string } }).error;
      expect(error.param, name).to.equal(param);
      expect(error.message, name).to.match(/is not an image format this platform takes; accepted: image\/png, image\/jpeg/);
    }
    // An octet-stream upload that is a PNG is sniffed and sent as one.
    const sent = captureImageParts();
    const form = new FormData();
    form.append('prompt', 'x');
    form.append('image', new Blob([Buffer.from(IMAGE_BASE64, 'base64')], { type: 'application/octet-stream' }), 'a.bin');
    const res = await fetch(`${gw.url}/gemini/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}` }, body: form });
    expect(res.status).to.equal(200);
    expect(sent.parts).to.deep.equal([{ text: 'x' }, { inlineData: { mimeType: 'image/png', data: IMAGE_BASE64 } }]);
  });

  it('an upstream error keeps its status; a bad size is a 400 naming the field', async () => {
    nock(UPSTREAM).post(/:generateContent$/).reply(400, fixtureJson('gemini/error-400.json'));
    const upstream = await postJson(`${gw.url}/gemini/v1/images/generations`, { model: 'gemini-2.5-flash-image', prompt: 'x' });
    expect(upstream.status).to.equal(400);
    const bad = await postJson(`${gw.url}/gemini/v1/images/generations`, { prompt: 'x', quality: 'ultra' });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { error: { param: string } }).error.param).to.equal('quality');
  });
});

describe('gemini image answers', () => {
  it('a text-only answer explains why there is no image; thought images are skipped', () => {
    const answer = fromGenerateContentImages({
      candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' }, thought: true }, { text: 'I cannot draw that.' }] }, finishReason: 'STOP' }],
    });
    expect(answer.images).to.deep.equal([]);
    expect(answer.reasons).to.deep.equal(['the model answered: I cannot draw that.']);
  });

  it('refuses an image whose data is empty or not base64 (it would be a 200 image of nothing), from Gemini and Imagen', () => {
    for (const data of ['', '!!!! not base64 <script>']) {
      const gemini = (() => {
        try {
          return fromGenerateContentImages({ candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data } }] }, finishReason: 'STOP' }] });
        } catch (error) {
          return error;
        }
      })();
      expect(gemini, JSON.stringify(data)).to.include({ code: 'GW_UPSTREAM_BAD_RESPONSE', status: 502 });
    }
    expect(() => fromImagenPredictions({ predictions: [{ mimeType: 'image/png', bytesBase64Encoded: '@@@' }] })).to.throw('not base64');
  });

  it('reads imagen predictions in order', () => {
    expect(fromImagenPredictions(PREDICT).images).to.deep.equal([{ data: PREDICT.predictions[0].bytesBase64Encoded, mediaType: 'image/png' }]);
  });
});
