import { expect } from 'chai';
import { encodeMultipart } from '../../../core/upstream/encode-multipart';
import { parseMultipart, TINY_PNG } from '../../helpers/multipart';

describe('encodeMultipart', () => {
  it('encodes text fields and files that a standard parser reads back byte for byte, in order', async () => {
    const binary = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d, 0x89]);
    const { body, contentType } = encodeMultipart([
      { name: 'model', value: 'gpt-image-1' },
      { name: 'prompt', value: 'two lines\r\nand "quotes" é' },
      { name: 'image[]', filename: 'a.png', mediaType: 'image/png', data: TINY_PNG },
      { name: 'image[]', filename: 'b.bin', mediaType: 'application/octet-stream', data: binary },
    ]);
    expect(contentType).to.match(/^multipart\/form-data; boundary=----GatewayFormBoundary[\w-]{24}$/);
    const parsed = await parseMultipart(body, contentType);
    expect(parsed.fields).to.deep.equal([['model', 'gpt-image-1'], ['prompt', 'two lines\r\nand "quotes" é']]);
    expect(parsed.files.map((file) => [file.field, file.filename, file.type])).to.deep.equal([
      ['image[]', 'a.png', 'image/png'],
      ['image[]', 'b.bin', 'application/octet-stream'],
    ]);
    expect(parsed.files[0].data.equals(TINY_PNG)).to.equal(true);
    expect(parsed.files[1].data.equals(binary)).to.equal(true);
  });

  it('percent-encodes quotes and line breaks in names so a name cannot break the part header', async () => {
    const { body, contentType } = encodeMultipart([{ name: 'a"b\r\nc', filename: 'x"\n.png', mediaType: 'image/png', data: TINY_PNG }]);
    const head = body.toString('latin1', 0, 200);
    expect(head).to.include('name="a%22b%0D%0Ac"; filename="x%22%0A.png"');
    expect((await parseMultipart(body, contentType)).files).to.have.length(1);
  });

  it('uses a fresh random boundary per body', () => {
    const a = encodeMultipart([{ name: 'x', value: '1' }]).contentType;
    const b = encodeMultipart([{ name: 'x', value: '1' }]).contentType;
    expect(a).not.to.equal(b);
  });
});
