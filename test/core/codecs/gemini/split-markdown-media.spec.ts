import { expect } from 'chai';
import { splitMarkdownMedia } from '../../../../core/codecs/gemini/split-markdown-media';

describe('splitMarkdownMedia', () => {
  it('makes each data-URI markdown image inline data between the text around it', () => {
    expect(splitMarkdownMedia('Here:![image](data:image/png;base64,AAAA) and ![image](data:image/jpeg;base64,BBBB)!')).to.deep.equal([
      { text: 'Here:' },
      { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
      { text: ' and ' },
      { inlineData: { mimeType: 'image/jpeg', data: 'BBBB' } },
      { text: '!' },
    ]);
  });

  it('leaves any other text as one part: links, URL images, non-media data URIs, text about markdown', () => {
    for (const text of ['see ![image](https://example.com/a.png)', '[doc](data:text/plain;base64,QQ==)', 'write `![image](data:image/png;base64,...)`', 'plain']) {
      expect(splitMarkdownMedia(text)).to.deep.equal([{ text }]);
    }
  });
});
