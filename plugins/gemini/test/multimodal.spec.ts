import { expect } from 'chai';
import nock from 'nock';
import { fixtureJson } from '../../../test/helpers/fixtures';
import { startGateway, type RunningGateway } from '../../../test/helpers/start-gateway';
import { KEY_A, postJson, UPSTREAM } from './helpers';

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG = Buffer.from(PNG_BASE64, 'base64');
const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(29, 1)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.alloc(20)]);
const MEDIA_HOST = 'https://media.example.test';

type Part = Record<string, { mimeType?: string; data?: string; fileUri?: string } | string>;

describe('gemini plugin: multimodal input', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway(
      { gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }] } },
      { media: { maxBytes: 64 * 1024, timeoutMs: 2000, allowPrivateAddresses: false } },
    );
  });
  after(() => gw.close());

  /** Sends a chat request whose last user message holds `parts`; resolves with the upstream user parts (if called). */
  async function send(parts: unknown[], leading: unknown[] = []): Promise<{ res: Response; upstreamParts?: Part[]; called: boolean }> {
    let upstreamParts: Part[] | undefined;
    const scope = nock(UPSTREAM)
      .post(/generateContent/)
      .reply((_uri, body) => {
        const contents = (body as { contents: Array<{ parts: Part[] }> }).contents;
        upstreamParts = contents.at(-1)?.parts;
        return [200, fixtureJson('gemini/response-basic.json')];
      });
    const res = await postJson(`${gw.url}/gemini/v1/chat/completions`, { model: 'gemini-2.5-flash', messages: [...leading, { role: 'user', content: parts }] });
    return { res, upstreamParts, called: scope.isDone() };
  }

  const text = { type: 'text', text: 'What is in this?' };
  const imageUrl = (url: string): unknown => ({ type: 'image_url', image_url: { url } });

  it('passes a base64 image as inlineData', async () => {
    const { res, upstreamParts } = await send([text, imageUrl(`data:image/png;base64,${PNG_BASE64}`)]);
    expect(res.status).to.equal(200);
    expect(upstreamParts?.[1]).to.deep.equal({ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } });
  });

  it('fetches an image URL and inlines it with the type the server declares', async () => {
    const media = nock(MEDIA_HOST).get('/cat.png').reply(200, PNG, { 'content-type': 'image/png' });
    const { res, upstreamParts } = await send([text, imageUrl(`${MEDIA_HOST}/cat.png`)]);
    expect(res.status).to.equal(200);
    expect(media.isDone()).to.equal(true);
    expect(upstreamParts?.[1]).to.deep.equal({ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } });
  });

  it('sniffs the type of a URL served as application/octet-stream', async () => {
    nock(MEDIA_HOST).get('/download').reply(200, PNG, { 'content-type': 'application/octet-stream' });
    const { upstreamParts } = await send([text, imageUrl(`${MEDIA_HOST}/download`)]);
    expect(upstreamParts?.[1]).to.deep.equal({ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } });
  });

  it('takes audio and video in image_url parts, by URL or data URI, under their registered types', async () => {
    nock(MEDIA_HOST).get('/clip.mp4').reply(200, MP4, { 'content-type': 'video/mp4' });
    const { res, upstreamParts } = await send([
      text,
      imageUrl(`data:audio/mp3;base64,${MP3.toString('base64')}`),
      imageUrl(`${MEDIA_HOST}/clip.mp4`),
      { type: 'input_audio', input_audio: { data: MP3.toString('base64'), format: 'wav' } },
    ]);
    expect(res.status).to.equal(200);
    expect(upstreamParts?.slice(1)).to.deep.equal([
      { inlineData: { mimeType: 'audio/mpeg', data: MP3.toString('base64') } },
      { inlineData: { mimeType: 'video/mp4', data: MP4.toString('base64') } },
      { inlineData: { mimeType: 'audio/wav', data: MP3.toString('base64') } },
    ]);
  });

  it('leaves a YouTube link for Gemini to read itself', async () => {
    const { upstreamParts } = await send([text, imageUrl('https://www.youtube.com/watch?v=9hE5-98ZeCg')]);
    expect(upstreamParts?.[1]).to.deep.equal({ fileData: { fileUri: 'https://www.youtube.com/watch?v=9hE5-98ZeCg' } });
  });

  describe('refused formats (415, naming the type and the field)', () => {
    const cases: Array<[string, () => unknown, string]> = [
      ['a gif data URI', () => imageUrl('data:image/gif;base64,R0lGODlhAQABAAAAACw='), 'image/gif'],
      ['an svg data URI', () => imageUrl('data:image/svg+xml;base64,PHN2Zy8+'), 'image/svg+xml'],
      ['a midi audio data URI', () => imageUrl('data:audio/midi;base64,TVRoZA=='), 'audio/midi'],
      ['a matroska video URL', () => { nock(MEDIA_HOST).get('/movie.mkv').reply(200, Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0]), { 'content-type': 'video/x-matroska' }); return imageUrl(`${MEDIA_HOST}/movie.mkv`); }, 'video/x-matroska'],
      ['a tiff URL', () => { nock(MEDIA_HOST).get('/scan.tiff').reply(200, Buffer.from('II*\0abcd'), { 'content-type': 'image/tiff' }); return imageUrl(`${MEDIA_HOST}/scan.tiff`); }, 'image/tiff'],
      ['an untyped gif URL (sniffed)', () => { nock(MEDIA_HOST).get('/anim').reply(200, Buffer.from('GIF89a\x01\x00\x01\x00'), { 'content-type': 'application/octet-stream' }); return imageUrl(`${MEDIA_HOST}/anim`); }, 'image/gif'],
      ['a PDF file part', () => ({ type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjcK' } }), 'application/pdf'],
    ];
    for (const [name, part, type] of cases) {
      it(`refuses ${name}`, async () => {
        const { res, called } = await send([text, part()], [{ role: 'system', content: 'be brief' }]);
        expect(res.status).to.equal(415);
        const body = (await res.json()) as { error: { message: string; param: string | null } };
        expect(body.error.message).to.match(new RegExp(`^messages\\[1\\]\\.content\\[1\\]: ${type.replace(/[+/]/g, '\\$&')} is not an accepted media type`));
        expect(body.error.message).to.include('image/png, image/jpeg');
        expect(body.error.param).to.equal('messages[1].content[1]');
        expect(called).to.equal(false);
      });
    }
  });

  describe('SSRF guard on client URLs', () => {
    const refused = [
      'http://127.0.0.1:9/secret.png',
      'http://localhost:9/secret.png',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/x.png',
      'http://0.0.0.0/x.png',
      'http://2130706433/x.png',
      'http://10.1.2.3/x.png',
      'http://192.168.0.10/x.png',
      'http://[fd00::1]/x.png',
      'http://[::ffff:127.0.0.1]/x.png',
    ];
    for (const url of refused) {
      it(`refuses ${url} with 400 naming the field, without calling the upstream`, async () => {
        const { res, called } = await send([text, imageUrl(url)]);
        expect(res.status).to.equal(400);
        const body = (await res.json()) as { error: { message: string; param: string | null } };
        expect(body.error.message).to.match(/^messages\[0\]\.content\[1\]: refused to fetch media from /);
        expect(body.error.param).to.equal('messages[0].content[1]');
        expect(called).to.equal(false);
      });
    }

    it('refuses a public URL that redirects to the metadata address', async () => {
      nock(MEDIA_HOST).get('/redirect.png').reply(302, '', { location: 'http://169.254.169.254/latest/meta-data/iam/' });
      const { res, called } = await send([text, imageUrl(`${MEDIA_HOST}/redirect.png`)]);
      expect(res.status).to.equal(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).to.include('refused to fetch media from 169.254.169.254');
      expect(called).to.equal(false);
    });
  });

  it('refuses media larger than the configured limit with 413', async () => {
    nock(MEDIA_HOST).get('/huge.mp4').reply(200, Buffer.concat([MP4, Buffer.alloc(70 * 1024)]), { 'content-type': 'video/mp4' });
    const { res, called } = await send([text, imageUrl(`${MEDIA_HOST}/huge.mp4`)]);
    expect(res.status).to.equal(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.include('65536-byte limit');
    expect(called).to.equal(false);
  });

  it('refuses the URLs of an image edit that together pass the limit, each one below it, without calling Gemini', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(40 * 1024)]);
    nock(MEDIA_HOST).get(/\/edit-\d\.png/).times(3).reply(200, big, { 'content-type': 'image/png' });
    const upstream = nock(UPSTREAM).post(/generateContent/).reply(200, fixtureJson('gemini/response-basic.json'));
    const images = [1, 2, 3].map((i) => ({ image_url: `${MEDIA_HOST}/edit-${i}.png` }));
    const res = await postJson(`${gw.url}/gemini/v1/images/edits`, { model: 'gemini-2.5-flash-image', prompt: 'merge them', images });
    expect(res.status).to.equal(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.match(/together exceed the 65536-byte limit/);
    expect(upstream.isDone()).to.equal(false);
    nock.cleanAll();
  });

  it('refuses media that together pass the limit, each one below it', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(40 * 1024)]);
    nock(MEDIA_HOST).get('/a.png').reply(200, big, { 'content-type': 'image/png' });
    nock(MEDIA_HOST).get('/b.png').reply(200, big, { 'content-type': 'image/png' });
    const { res, called } = await send([text, imageUrl(`${MEDIA_HOST}/a.png`), imageUrl(`${MEDIA_HOST}/b.png`)]);
    expect(res.status).to.equal(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.match(/together exceed the 65536-byte limit/);
    expect(called).to.equal(false);
  });

  it('refuses more than 100 media to fetch before fetching any (inline data and YouTube links do not count)', async () => {
    let fetched = 0;
    nock(MEDIA_HOST).get(/.*/).times(101).reply(() => {
      fetched += 1;
      return [200, PNG, { 'content-type': 'image/png' }];
    });
    const inline = imageUrl(`data:image/png;base64,${PNG_BASE64}`);
    const urls = Array.from({ length: 101 }, (_, i) => imageUrl(`${MEDIA_HOST}/${i}.png`));
    const { res, called } = await send([text, inline, imageUrl('https://youtu.be/abc'), ...urls]);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.match(/^messages\[0\]\.content\[103\]: a request may give at most 100 media by URL/);
    expect(fetched).to.equal(0);
    expect(called).to.equal(false);
    nock.cleanAll();
  });

  it('answers 400 when the media URL answers an error', async () => {
    nock(MEDIA_HOST).get('/gone.png').reply(404, 'nope');
    const { res, called } = await send([text, imageUrl(`${MEDIA_HOST}/gone.png`)]);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.equal(
      'messages[0].content[1]: fetching the media URL from media.example.test failed with HTTP 404',
    );
    expect(called).to.equal(false);
  });

  it('inlines media inside a tool result', async () => {
    let upstreamContents: Array<{ role: string; parts: Part[] }> = [];
    nock(UPSTREAM)
      .post(/generateContent/)
      .reply((_uri, body) => {
        upstreamContents = (body as { contents: typeof upstreamContents }).contents;
        return [200, fixtureJson('gemini/response-basic.json')];
      });
    nock(MEDIA_HOST).get('/chart.png').reply(200, PNG, { 'content-type': 'image/png' });
    const res = await postJson(`${gw.url}/gemini/v1/chat/completions`, {
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'user', content: 'Draw the chart' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'render', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'rendered' }, { type: 'image_url', image_url: { url: `${MEDIA_HOST}/chart.png` } }] },
      ],
      tools: [{ type: 'function', function: { name: 'render', parameters: { type: 'object', properties: {} } } }],
    });
    expect(res.status).to.equal(200);
    expect(JSON.stringify(upstreamContents.at(-1))).to.include(PNG_BASE64);
    expect(JSON.stringify(upstreamContents)).not.to.include(`${MEDIA_HOST}/chart.png`);
  });
});
