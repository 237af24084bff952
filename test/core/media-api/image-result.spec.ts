import { expect } from 'chai';
import { encodeImageItem, type EncodeImageOptions } from '../../../core/media-api/image-result';
import { TINY_PNG } from '../../helpers/multipart';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);

function options(patch: Partial<EncodeImageOptions> = {}): EncodeImageOptions & { published: Array<{ data: Buffer; mediaType: string }> } {
  const published: Array<{ data: Buffer; mediaType: string }> = [];
  return {
    responseFormat: 'b64_json',
    base64Style: 'data-uri',
    publish: async (file) => {
      published.push(file);
      return `https://gw.example/files/${published.length}`;
    },
    published,
    ...patch,
  };
}

describe('encodeImageItem', () => {
  it('writes b64_json as a data URI of the sniffed type by default (spec 2.4)', async () => {
    expect(await encodeImageItem({ data: TINY_PNG.toString('base64') }, options())).to.deep.equal({ b64_json: `data:image/png;base64,${TINY_PNG.toString('base64')}` });
    expect((await encodeImageItem({ data: JPEG }, options())).b64_json).to.match(/^data:image\/jpeg;base64,/);
  });

  it('writes plain base64 when the platform is set so', async () => {
    expect(await encodeImageItem({ data: TINY_PNG, revisedPrompt: 'p' }, options({ base64Style: 'plain' }))).to.deep.equal({ b64_json: TINY_PNG.toString('base64'), revised_prompt: 'p' });
  });

  it('accepts a data URI as input and does not wrap it twice', async () => {
    const uri = `data:image/png;base64,${TINY_PNG.toString('base64')}`;
    expect((await encodeImageItem({ data: uri }, options())).b64_json).to.equal(uri);
  });

  it('publishes the bytes and answers the URL for response_format url', async () => {
    const opts = options({ responseFormat: 'url' });
    expect(await encodeImageItem({ data: TINY_PNG.toString('base64'), mediaType: 'image/png' }, opts)).to.deep.equal({ url: 'https://gw.example/files/1' });
    expect(opts.published[0].data.equals(TINY_PNG)).to.equal(true);
    expect(opts.published[0].mediaType).to.equal('image/png');
  });
});
