import { expect } from 'chai';
import { isGatewayError, type GatewayError } from '../../../core/errors/gateway-error';
import type { UploadedFile } from '../../../core/hooks/plugin-api';
import { parseVideoRequest } from '../../../core/media-api/parse-video-request';
import { fixtureJson } from '../../helpers/fixtures';
import { TINY_PNG } from '../../helpers/multipart';

const JSON_CTX = { headers: { 'content-type': 'application/json' } };
const FORM_CTX = { headers: { 'content-type': 'multipart/form-data; boundary=x' } };

function failure(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

const png = (field: string): UploadedFile => ({ field, filename: 'first.png', mediaType: 'image/png', data: TINY_PNG });

describe('parseVideoRequest', () => {
  it('reads the fixture JSON body, seconds kept as the string it is', () => {
    const parsed = parseVideoRequest({ body: fixtureJson('openai-videos/request-create.json'), files: [] }, JSON_CTX);
    expect(parsed).to.deep.include({ model: 'sora-2', size: '1280x720', seconds: '8', multipart: false });
    expect(parsed.references).to.deep.equal([]);
  });

  it('turns a numeric seconds into the string the Videos API wants', () => {
    expect(parseVideoRequest({ body: { prompt: 'x', seconds: 8 }, files: [] }, JSON_CTX).seconds).to.equal('8');
  });

  it('takes input_reference files under input_reference and input_reference[]', () => {
    const parsed = parseVideoRequest({ body: { prompt: 'x', seconds: '4' }, files: [png('input_reference[]'), png('input_reference')] }, FORM_CTX);
    expect(parsed.references.map((ref) => ref.kind)).to.deep.equal(['file', 'file']);
    expect(parsed.seconds).to.equal('4');
  });

  it('answers 400 naming the field for an empty input_reference file', () => {
    const error = failure(() => parseVideoRequest({ body: { prompt: 'x' }, files: [{ ...png('input_reference'), data: Buffer.alloc(0) }] }, FORM_CTX));
    expect(error).to.include({ code: 'GW_INVALID_REQUEST', param: 'input_reference', message: 'input_reference: the file "first.png" is empty' });
  });

  it('takes a string, a list or the OpenAI object form', () => {
    expect(parseVideoRequest({ body: { prompt: 'x', input_reference: 'https://e.com/a.png' }, files: [] }, JSON_CTX).references).to.deep.equal([{ kind: 'url', url: 'https://e.com/a.png' }]);
    expect(parseVideoRequest({ body: { prompt: 'x', input_reference: ['https://e.com/a.png', 'https://e.com/b.png'] }, files: [] }, JSON_CTX).references).to.have.length(2);
    expect(parseVideoRequest({ body: { prompt: 'x', input_reference: { file_id: 'file-9' } }, files: [] }, JSON_CTX).references).to.deep.equal([{ kind: 'file_id', fileId: 'file-9' }]);
  });

  const bad: Array<[string, Record<string, unknown>, UploadedFile[], string]> = [
    ['missing prompt', {}, [], 'prompt'],
    ['a size that is not WxH', { prompt: 'x', size: 'large' }, [], 'size'],
    ['a seconds that is not a count', { prompt: 'x', seconds: 'eight' }, [], 'seconds'],
    ['an unexpected file field', { prompt: 'x' }, [png('image')], 'image'],
    ['a reference that is not an image', { prompt: 'x', input_reference: 'hello' }, [], 'input_reference'],
  ];
  for (const [name, body, files, field] of bad) {
    it(`answers 400 naming the field for ${name}`, () => {
      const error = failure(() => parseVideoRequest({ body, files }, files.length ? FORM_CTX : JSON_CTX));
      expect(error.status).to.equal(400);
      expect(error.param).to.equal(field);
    });
  }
});
