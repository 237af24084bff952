import { expect } from 'chai';
import { splitMarkdownMedia } from '../../../../core/codecs/gemini/split-markdown-media';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const JPEG = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8U';

describe('splitMarkdownMedia', () => {
  it('makes each data-URI markdown image inline data between the text around it', () => {
    expect(splitMarkdownMedia(`Here:![image](data:image/png;base64,${PNG}) and ![image](data:image/jpeg;base64,${JPEG})!`)).to.deep.equal([
      { text: 'Here:' },
      { inlineData: { mimeType: 'image/png', data: PNG } },
      { text: ' and ' },
      { inlineData: { mimeType: 'image/jpeg', data: JPEG } },
      { text: '!' },
    ]);
  });

  it('leaves any other text as one part: links, URL images, non-media data URIs, text about markdown (data that is no picture)', () => {
    for (const text of ['see ![image](https://example.com/a.png)', '[doc](data:text/plain;base64,QQ==)', 'write `![image](data:image/png;base64,...)`', 'write `![image](data:image/png;base64,AAAA)`', 'plain']) {
      expect(splitMarkdownMedia(text)).to.deep.equal([{ text }]);
    }
  });
});
