import { expect } from 'chai';
import type { ImageRequest } from '@gateway/core';
import { textParts, toOpenAiImageRequest } from '../src/to-openai-image-request';
import { TINY_PNG } from '../../../test/helpers/multipart';

function request(patch: Partial<ImageRequest>): ImageRequest {
  return { kind: 'generation', prompt: 'p', responseFormat: 'b64_json', background: 'auto', quality: 'auto', async: false, stream: false, images: [], imageFields: [], fields: { prompt: 'p' }, multipart: false, ...patch };
}

describe('toOpenAiImageRequest', () => {
  const formatCases: Array<[string, string | undefined, Record<string, unknown>, boolean]> = [
    ['dall-e-2 gets response_format', 'dall-e-2', {}, true],
    ['gpt-image-1 does not', 'gpt-image-1', {}, false],
    ['gpt-image-1-mini does not', 'gpt-image-1-mini', {}, false],
    ['a compatible service\'s model (answers URLs unless told) gets it', 'flux-1-schnell', {}, true],
    ['no model (OpenAI picks DALL·E 2) gets it', undefined, {}, true],
    ['no model but a GPT-image-only field does not', undefined, { output_format: 'webp' }, false],
  ];
  for (const [name, model, extra, expected] of formatCases) {
    it(name, () => {
      const shaped = toOpenAiImageRequest(request({ model, responseFormat: 'url', fields: { prompt: 'p', model, response_format: 'url', ...extra } }));
      expect('json' in shaped && 'response_format' in shaped.json).to.equal(expected);
    });
  }

  it('sends an edit mixing a file and a URL as JSON, the file as a data URI', () => {
    const shaped = toOpenAiImageRequest(
      request({
        kind: 'edit',
        multipart: true,
        images: [{ kind: 'file', field: 'image[]', filename: 'a.png', mediaType: 'image/png', data: TINY_PNG }, { kind: 'url', url: 'https://e.com/b.png' }],
        mask: { kind: 'file_id', fileId: 'file-m' },
        fields: { prompt: 'p', model: 'gpt-image-1', image: 'https://e.com/b.png' },
        model: 'gpt-image-1',
      }),
    );
    expect(shaped).to.deep.equal({
      path: '/v1/images/edits',
      json: { prompt: 'p', model: 'gpt-image-1', images: [{ image_url: `data:image/png;base64,${TINY_PNG.toString('base64')}` }, { image_url: 'https://e.com/b.png' }], mask: { file_id: 'file-m' } },
    });
  });
});

describe('textParts', () => {
  it('encodes form values the way the SDKs do', () => {
    expect(textParts({ n: 2, stream: false, tags: ['a', 'b'], ref: { image_url: 'u' }, skip: undefined })).to.deep.equal([
      { name: 'n', value: '2' },
      { name: 'stream', value: 'false' },
      { name: 'tags[]', value: 'a' },
      { name: 'tags[]', value: 'b' },
      { name: 'ref[image_url]', value: 'u' },
    ]);
  });
});
