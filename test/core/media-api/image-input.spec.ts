import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { fileImageInput, imageInputBytes, imageInputUrl, parseImageReference } from '../../../core/media-api/image-input';
import { TINY_PNG } from '../../helpers/multipart';

const B64 = TINY_PNG.toString('base64');

describe('image inputs', () => {
  it('reads URLs, data URIs and bare base64 (type sniffed)', () => {
    expect(parseImageReference('https://e.com/a.png', 'image')).to.deep.equal({ kind: 'url', url: 'https://e.com/a.png' });
    expect(parseImageReference(`data:image/webp;base64,${B64}`, 'image')).to.deep.equal({ kind: 'base64', mediaType: 'image/webp', data: B64 });
    expect(parseImageReference(`${B64.slice(0, 40)}\n${B64.slice(40)}`, 'image')).to.deep.equal({ kind: 'base64', mediaType: 'image/png', data: B64 });
  });

  it('refuses a data URI whose payload is empty or not base64, naming the field', () => {
    for (const payload of ['', '!!!!', 'iVBORw0K GgoAAAANS$UhEUg', '===']) {
      let caught: unknown;
      try {
        parseImageReference(`data:image/png;base64,${payload}`, 'image[0]');
      } catch (error) {
        caught = error;
      }
      expect(isGatewayError(caught) && [caught.status, caught.param, caught.message], payload).to.deep.equal([400, 'image[0]', "image[0]: the data URI's payload is not base64 image data"]);
    }
    const wrapped = `${B64.slice(0, 20)}\r\n${B64.slice(20)}`;
    expect(parseImageReference(`data:image/png;base64,${wrapped}`, 'image')).to.deep.include({ kind: 'base64', mediaType: 'image/png' });
    expect(parseImageReference(`data:image/png;base64,${B64.replace(/\+/g, '-').replace(/\//g, '_')}`, 'image')).to.deep.include({ kind: 'base64' });
  });

  it('sniffs the type of an upload sent as application/octet-stream', () => {
    expect(fileImageInput({ field: 'image', filename: 'x', mediaType: 'application/octet-stream', data: TINY_PNG })).to.deep.include({ mediaType: 'image/png' });
  });

  it('gives bytes and URLs for what a platform sends on', () => {
    const input = parseImageReference(B64, 'image');
    expect(imageInputBytes(input)?.data.equals(TINY_PNG)).to.equal(true);
    expect(imageInputUrl(input)).to.equal(`data:image/png;base64,${B64}`);
    expect(imageInputBytes({ kind: 'url', url: 'https://e.com' })).to.equal(undefined);
    expect(imageInputUrl({ kind: 'file_id', fileId: 'f' })).to.equal(undefined);
  });
});
