import { expect } from 'chai';
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { buildBody } from '../../../bench/bodies';
import { createBodyReaders } from '../../../core/http/read-body';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { watchJsonParse } from '../../helpers/json-parse-spy';

describe('createBodyReaders().json', () => {
  let server: Server;
  let url: string;
  /** The lengths of the texts JSON.parse was given while the last body was read. */
  let parsedLengths: number[] = [];

  before(async () => {
    const readers = createBodyReaders({ jsonBodyBytes: 1024 * 1024, fileBytes: 1024 * 1024 });
    const app = express();
    app.post('/', async (req, res) => {
      const watch = watchJsonParse();
      parsedLengths = watch.lengths;
      try {
        const body = await readers.json(req, res);
        watch.stop();
        res.json({ raw: body.raw.toString('base64'), json: body.json, type: req.headers['content-type'] });
      } catch (error) {
        watch.stop();
        res.status(400).json(isGatewayError(error) ? { code: error.code, message: error.message } : { message: String(error) });
      }
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => server.close());

  const post = (body: Buffer) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('parses a 200 KB conversation in pieces of at most 32 KB of text, and keeps its bytes', async () => {
    const bytes = buildBody('chat-completions', 'large', 'json');
    const res = await post(bytes);
    expect(res.status).to.equal(200);
    const answer = (await res.json()) as { raw: string; json: unknown };
    expect(Buffer.from(answer.raw, 'base64').equals(bytes)).to.equal(true);
    expect(answer.json).to.deep.equal(JSON.parse(bytes.toString('utf8')));
    expect(parsedLengths.length).to.be.greaterThan(5);
    expect(Math.max(...parsedLengths)).to.be.at.most(32 * 1024 + 2);
  });

  it('reads a body in the charset its content type declares, and carries it on as UTF-8; refuses a charset it cannot decode', async () => {
    const text = '{"messages":[{"role":"user","content":"café naïve"}]}';
    // The content type a passthrough forwards then says UTF-8 too; one that was UTF-8 already stays as sent.
    const cases: Array<[string, Buffer, string]> = [
      ['application/json; charset=ISO-8859-1', Buffer.from(text, 'latin1'), 'application/json; charset=utf-8'],
      ['text/plain;charset="windows-1252"', Buffer.from(text, 'latin1'), 'text/plain; charset=utf-8'],
      ['application/json; charset=utf-16le', Buffer.from(text, 'utf16le'), 'application/json; charset=utf-8'],
      ['application/json; charset=UTF-8', Buffer.from(text, 'utf8'), 'application/json; charset=UTF-8'],
      ["application/json; charset='utf-8'", Buffer.from(text, 'utf8'), "application/json; charset='utf-8'"],
      ['application/json', Buffer.from(text, 'utf8'), 'application/json'],
    ];
    for (const [type, body, forwarded] of cases) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
      expect(res.status, type).to.equal(200);
      const answer = (await res.json()) as { raw: string; json: unknown; type: string };
      expect(Buffer.from(answer.raw, 'base64').toString('utf8'), type).to.equal(text);
      expect(answer.json, type).to.deep.equal(JSON.parse(text));
      expect(answer.type, type).to.equal(forwarded);
    }
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=x-klingon' }, body: text });
    expect(await res.json()).to.deep.equal({ code: 'GW_UNSUPPORTED_CONTENT_TYPE', message: 'charset x-klingon is not supported; send the body as UTF-8' });
  });

  it("answers a large body that is not JSON with JSON.parse's own message", async () => {
    const text = buildBody('chat-completions', 'large', 'json').toString('utf8').replace('},{', '}{');
    const res = await post(Buffer.from(text));
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({ code: 'GW_INVALID_JSON', message: `request body is not valid JSON: ${jsonParseError(text)}` });
  });

  describe('nesting', () => {
    /** A body whose arrays and objects are `levels` deep in all, the body itself included. */
    const nested = (levels: number, around = '') => Buffer.from(`{${around}"a":${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}}`);
    const TOO_DEEP = { code: 'GW_INVALID_REQUEST', message: 'request body is nested deeper than 128 levels of arrays and objects' };

    it('accepts a body exactly 128 levels deep', async () => {
      const res = await post(nested(128));
      expect(res.status).to.equal(200);
      expect(((await res.json()) as { json: unknown }).json).to.deep.equal(JSON.parse(nested(128).toString()));
    });

    for (const levels of [129, 3000]) {
      it(`refuses a body ${levels} levels deep with a 400 that says so`, async () => {
        const res = await post(nested(levels));
        expect(res.status).to.equal(400);
        expect(await res.json()).to.deep.equal(TOO_DEEP);
      });
    }

    it('refuses a deep body of over 64 KB, which is parsed in pieces', async () => {
      const body = nested(129, `"history":${JSON.stringify(Array.from({ length: 50 }, () => ({ role: 'user', content: 'x'.repeat(2000) })))},`);
      expect(body.length).to.be.greaterThan(64 * 1024);
      const res = await post(body);
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal(TOO_DEEP);
    });

    it('does not count brackets inside strings, escaped quotes included', async () => {
      // As JSON: `\"` (a quote), `\\\"` (a backslash, then a quote) and a string that ends in `\\`.
      const text = JSON.stringify(`[[[{{{ "${'\\"[{'.repeat(400)} \\`);
      const body = Buffer.from(`{"text":${text},"list":[${text},{${text}:${text}}],"deep":${'['.repeat(100)}${']'.repeat(100)}}`);
      const res = await post(body);
      expect(res.status).to.equal(200);
      expect(((await res.json()) as { json: unknown }).json).to.deep.equal(JSON.parse(body.toString()));
    });

    it('refuses a number too large for a double, which would go on as null (a tool schema\'s "maximum": 1e309)', async () => {
      const res = await post(Buffer.from('{"tools":[{"input_schema":{"type":"object","properties":{"n":{"type":"integer","maximum":1e309}}}}]}'));
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ code: 'GW_INVALID_REQUEST', message: 'request body has a number too large for a 64-bit float (1e309); JSON would carry it on as null' });
    });

    it('refuses a deep body before parsing it, whether it would parse or not (the parse is the cost)', async () => {
      const text = `{"a":${'['.repeat(3000)}`;
      const res = await post(Buffer.from(text));
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal(TOO_DEEP);
    });

    it('keeps the invalid-JSON error for a shallow body that is not JSON', async () => {
      const text = `{"a":[[1,]]}`;
      const res = await post(Buffer.from(text));
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ code: 'GW_INVALID_JSON', message: `request body is not valid JSON: ${jsonParseError(text)}` });
    });
  });
});

/** The message JSON.parse gives for `text`, which the gateway's own must equal. */
function jsonParseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the text parsed');
}

describe('createBodyReaders().form', () => {
  const FILE_BYTES = 64 * 1024;
  let server: Server;
  let url: string;

  before(async () => {
    const readers = createBodyReaders({ jsonBodyBytes: 100 * 1024, fileBytes: FILE_BYTES });
    const app = express();
    app.post('/names', async (req, res) => {
      const form = await readers.form(req, res);
      res.json({ filenames: form.files.map((file) => file.filename) });
    });
    app.post('/', async (req, res) => {
      try {
        const form = await readers.form(req, res);
        res.json({ fields: form.body, files: form.files.map((file) => ({ field: file.field, bytes: file.data.length })) });
      } catch (error) {
        res.status(isGatewayError(error) ? error.status : 500).json(isGatewayError(error) ? { code: error.code, message: error.message, param: error.param ?? null } : { message: String(error) });
      }
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => server.close());

  const send = (files: number, bytesEach: number) => {
    const form = new FormData();
    form.set('prompt', 'edit these');
    for (let i = 0; i < files; i += 1) form.append('image[]', new Blob([Buffer.alloc(bytesEach, i)], { type: 'image/png' }), `${i}.png`);
    return fetch(url, { method: 'POST', body: form });
  };

  it('reads fields and files within the limits', async () => {
    const res = await send(2, 1000);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ fields: { prompt: 'edit these' }, files: [{ field: 'image[]', bytes: 1000 }, { field: 'image[]', bytes: 1000 }] });
  });

  it('reads a filename sent as UTF-8 (as the SDKs send it) as UTF-8', async () => {
    const form = new FormData();
    form.append('image', new Blob([Buffer.alloc(10)], { type: 'image/png' }), 'café-画像.png');
    const res = await fetch(url.replace(/\/$/, '/names'), { method: 'POST', body: form });
    expect(await res.json()).to.deep.equal({ filenames: ['café-画像.png'] });
  });

  it('answers 413 when the files together pass the form limit, each within its own', async () => {
    // 3 × 60 KB: every file under 64 KB, the sum over the larger limit (100 KB).
    const res = await send(3, 60 * 1024);
    expect(res.status).to.equal(413);
    expect(await res.json()).to.deep.equal({ code: 'GW_BODY_TOO_LARGE', message: `form data is larger than the limit of ${100 * 1024} bytes`, param: null });
  });

  it('answers 413 naming the field and the limit for one file too large', async () => {
    const res = await send(1, FILE_BYTES + 1);
    expect(res.status).to.equal(413);
    expect(await res.json()).to.deep.equal({ code: 'GW_BODY_TOO_LARGE', message: `file field "image[]" is larger than the limit of ${FILE_BYTES} bytes`, param: 'image[]' });
  });

  it('answers 400 for a bracketed field index past what a form can fill (foo[4294967294] made an array of 4 billion slots)', async () => {
    const form = new FormData();
    form.append('prompt', 'edit');
    form.append('foo[4294967294]', 'x');
    const res = await fetch(url, { method: 'POST', body: form });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({ code: 'GW_INVALID_REQUEST', message: 'form field foo: an index above 99 (a form has at most 100 fields)', param: 'foo' });
    const nested = new FormData();
    nested.append('a[b][150]', 'x');
    expect(((await (await fetch(url, { method: 'POST', body: nested })).json()) as { param: string }).param).to.equal('a[b]');
  });

  it('answers 400 for more files than an image edit takes', async () => {
    const res = await send(18, 10);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { message: string }).message).to.equal('form data carries more than 17 files');
  });
});
