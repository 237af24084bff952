import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { decodeVideoObject, toVideoObject, wantsVideoDetail, withVideoDetail } from '../../../core/media-api/video-object';
import { fixtureJson, fixtureText } from '../../helpers/fixtures';

describe('video object', () => {
  for (const name of ['queued', 'in-progress', 'completed', 'failed', 'remix-queued']) {
    it(`decodes the ${name} fixture unchanged, field order included`, () => {
      const text = fixtureText(`openai-videos/video-object-${name}.json`);
      expect(JSON.stringify(decodeVideoObject(JSON.parse(text)))).to.equal(JSON.stringify(JSON.parse(text)));
    });
  }

  it('keeps fields it does not know after the known ones', () => {
    const video = decodeVideoObject({ ...fixtureJson<Record<string, unknown>>('openai-videos/video-object-queued.json'), quality: 'high' });
    expect(Object.keys(video).at(-1)).to.equal('quality');
    expect(video).to.have.property('quality', 'high');
  });

  it('completes a platform\'s partial knowledge with nulls', () => {
    expect(toVideoObject({ id: 'v1', model: 'veo', status: 'completed', created_at: 5 })).to.deep.equal({
      id: 'v1', object: 'video', created_at: 5, status: 'completed', completed_at: null, error: null, expires_at: null,
      model: 'veo', progress: 100, prompt: null, remixed_from_video_id: null, seconds: null, size: null,
    });
  });

  it('refuses an upstream body that is not a video object (502)', () => {
    for (const body of [null, [], { id: 'v' }, { id: 'v', status: 'done' }, fixtureJson('openai-videos/error-404.json')]) {
      let error: unknown;
      try {
        decodeVideoObject(body);
      } catch (e) {
        error = e;
      }
      expect(isGatewayError(error) && error.status).to.equal(502);
    }
  });

  it('adds detail only when asked', () => {
    const video = toVideoObject({ id: 'v', model: 'm', status: 'queued', created_at: 1 });
    expect(withVideoDetail(video, { raw: 1 }, false)).not.to.have.property('detail');
    expect(withVideoDetail(video, { raw: 1 }, true).detail).to.deep.equal({ raw: 1 });
    expect(wantsVideoDetail({ detail: 'true' })).to.equal(true);
    expect(wantsVideoDetail({ detail: '1' })).to.equal(true);
    expect(wantsVideoDetail({ detail: 'false' })).to.equal(false);
    expect(wantsVideoDetail({})).to.equal(false);
  });
});
