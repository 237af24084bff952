import { expect } from 'chai';
import { isGatewayError, type GatewayError } from '../../../core/errors/gateway-error';
import type { CustomRequest, UploadedFile } from '../../../core/hooks/plugin-api';
import { parseImageRequest } from '../../../core/media-api/parse-image-request';
import { fixtureJson } from '../../helpers/fixtures';
import { TINY_PNG } from '../../helpers/multipart';

const JSON_CTX = { headers: { 'content-type': 'application/json' }, query: {} };
const FORM_CTX = { headers: { 'content-type': 'multipart/form-data; boundary=x' }, query: {} };
const PNG_B64 = TINY_PNG.toString('base64');

function file(field: string, name = 'a.png', mediaType = 'image/png'): UploadedFile {
  return { field, filename: name, mediaType, data: TINY_PNG };
}

function request(body: Record<string, unknown>, files: UploadedFile[] = []): CustomRequest {
  return { body, files };
}

function failure(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('parseImageRequest', () => {
  it('applies the spec defaults to a bare generation', () => {
    const parsed = parseImageRequest(request({ prompt: 'a cat' }), JSON_CTX, 'generation');
    expect(parsed).to.deep.include({ prompt: 'a cat', responseFormat: 'b64_json', background: 'auto', quality: 'auto', async: false, stream: false, multipart: false });
    expect(parsed.images).to.deep.equal([]);
  });

  it('keeps the fixture request fields as sent (unknown ones included)', () => {
    const body = fixtureJson('openai-images/request-generation.json');
    const parsed = parseImageRequest(request(body), JSON_CTX, 'generation');
    expect(parsed.fields).to.deep.equal(body);
    expect(parsed).to.deep.include({ model: 'gpt-image-1', n: 1, size: '1024x1024', quality: 'low', background: 'transparent' });
  });

  it('accepts the DALL·E quality values and url answers', () => {
    const parsed = parseImageRequest(request(fixtureJson('openai-images/request-generation-dalle3.json')), JSON_CTX, 'generation');
    expect(parsed).to.deep.include({ quality: 'standard', responseFormat: 'url' });
  });

  const enumCases: Array<[string, Record<string, unknown>, string]> = [
    ['response_format', { response_format: 'png' }, 'response_format'],
    ['background', { background: 'blue' }, 'background'],
    ['quality', { quality: 'ultra' }, 'quality'],
    ['size', { size: 'big' }, 'size'],
    ['size without height', { size: '1024x' }, 'size'],
    ['n out of range', { n: 11 }, 'n'],
    ['async not boolean', { async: 'yes' }, 'async'],
    ['prompt missing', { prompt: undefined }, 'prompt'],
    ['prompt empty', { prompt: '' }, 'prompt'],
  ];
  for (const [name, patch, field] of enumCases) {
    it(`answers 400 naming the field: ${name}`, () => {
      const error = failure(() => parseImageRequest(request({ prompt: 'x', ...patch }), JSON_CTX, 'generation'));
      expect(error.status).to.equal(400);
      expect(error.param).to.equal(field);
      expect(error.message.startsWith(`${field}:`)).to.equal(true);
    });
  }

  it('takes at most 16 input images in an edit, as GPT image models do (each may be a URL the gateway fetches)', () => {
    const images = (count: number) => Array.from({ length: count }, () => ({ image_url: `data:image/png;base64,${PNG_B64}` }));
    expect(parseImageRequest(request({ prompt: 'x', images: images(16) }), JSON_CTX, 'edit').images).to.have.length(16);
    const error = failure(() => parseImageRequest(request({ prompt: 'x', images: images(40) }), JSON_CTX, 'edit'));
    expect([error.status, error.param, error.message]).to.deep.equal([400, 'image', 'image: an image edit takes at most 16 images; this one has 40']);
  });

  it('lists the allowed values of an enum in the message', () => {
    const error = failure(() => parseImageRequest(request({ prompt: 'x', quality: 'ultra' }), JSON_CTX, 'generation'));
    expect(error.message).to.include('"low"').and.to.include('"hd"');
  });

  it('coerces multipart strings before validating: n, async, stream', () => {
    const parsed = parseImageRequest(request({ prompt: 'x', n: '2', async: 'true', stream: 'false' }), FORM_CTX, 'generation');
    expect(parsed).to.deep.include({ n: 2, async: true, stream: false, multipart: true });
    expect(parsed.fields).not.to.have.property('async');
  });

  it('does not coerce a JSON body: a string n is a 400', () => {
    expect(failure(() => parseImageRequest(request({ prompt: 'x', n: '2' }), JSON_CTX, 'generation')).param).to.equal('n');
  });

  it('takes async from the query string', () => {
    expect(parseImageRequest(request({ prompt: 'x' }), { ...JSON_CTX, query: { async: 'true' } }, 'generation').async).to.equal(true);
  });

  it('collects edit images: files (image and image[]), then image strings, then images objects', () => {
    const parsed = parseImageRequest(
      request({ prompt: 'x', image: ['https://example.com/a.png', `data:image/webp;base64,${PNG_B64}`], images: [{ image_url: PNG_B64 }, { file_id: 'file-1' }] }, [file('image[]'), file('image', 'b.png')]),
      FORM_CTX,
      'edit',
    );
    expect(parsed.images.map((input) => input.kind)).to.deep.equal(['file', 'file', 'url', 'base64', 'base64', 'file_id']);
    expect(parsed.images[3]).to.deep.equal({ kind: 'base64', mediaType: 'image/webp', data: PNG_B64 });
    expect(parsed.images[4]).to.deep.equal({ kind: 'base64', mediaType: 'image/png', data: PNG_B64 });
  });

  it('takes a mask as a file or as a reference', () => {
    expect(parseImageRequest(request({ prompt: 'x' }, [file('image'), file('mask')]), FORM_CTX, 'edit').mask?.kind).to.equal('file');
    expect(parseImageRequest(request({ prompt: 'x', image: PNG_B64, mask: { image_url: 'https://e.com/m.png' } }), JSON_CTX, 'edit').mask).to.deep.equal({ kind: 'url', url: 'https://e.com/m.png' });
  });

  it('answers 400 for a second mask, as a file or as a field beside a file (only one was sent on, silently)', () => {
    for (const [body, files] of [
      [{ prompt: 'x' }, [file('image'), file('mask'), file('mask', 'b.png')]],
      [{ prompt: 'x', mask: PNG_B64 }, [file('image'), file('mask')]],
    ] as const) {
      const error = failure(() => parseImageRequest(request(body, [...files]), FORM_CTX, 'edit'));
      expect(error).to.include({ code: 'GW_INVALID_REQUEST', param: 'mask', message: 'mask: an image edit takes one mask; this one has 2' });
    }
  });

  it('answers 400 naming the field for an empty image or mask file, as for an empty data URI', () => {
    for (const field of ['image', 'image[]', 'mask']) {
      const files = [field === 'mask' ? file('image') : undefined, { ...file(field), data: Buffer.alloc(0) }].filter((f): f is UploadedFile => f !== undefined);
      const error = failure(() => parseImageRequest(request({ prompt: 'x' }, files), FORM_CTX, 'edit'));
      expect(error, field).to.include({ code: 'GW_INVALID_REQUEST', param: field });
      expect(error.message, field).to.equal(`${field}: the file "a.png" is empty`);
    }
  });

  it('answers 400 for an edit without any image', () => {
    const error = failure(() => parseImageRequest(request({ prompt: 'x' }), JSON_CTX, 'edit'));
    expect(error.status).to.equal(400);
    expect(error.param).to.equal('image');
  });

  it('answers 400 naming a file field an edit does not take', () => {
    const error = failure(() => parseImageRequest(request({ prompt: 'x' }, [file('image'), file('picture')]), FORM_CTX, 'edit'));
    expect(error.status).to.equal(400);
    expect(error.param).to.equal('picture');
  });

  it('answers 400 for files on a generation', () => {
    expect(failure(() => parseImageRequest(request({ prompt: 'x' }, [file('image')]), FORM_CTX, 'generation')).param).to.equal('image');
  });

  it('answers 400 naming an image reference that is neither URL, data URI nor base64', () => {
    const error = failure(() => parseImageRequest(request({ prompt: 'x', image: ['https://e.com/a.png', 'not an image!'] }), JSON_CTX, 'edit'));
    expect(error.param).to.equal('image[1]');
  });
});
