import { expect } from 'chai';
import { isGatewayError, type RequestContext } from '@gateway/core';
import { createCorruptStore } from '../../../test/helpers/corrupt-store';
import { recordingLogger } from '../../../test/helpers/recording-logger';
import type { OpenAiCaller } from '../src/call-openai';
import { createOpenAiVideoKeys } from '../src/openai-video-keys';

describe('createOpenAiVideoKeys: a record that cannot be read back', () => {
  it('answers the video as not found, with a warning: it names no owner, so no license may read it (keyFor failed with a 500)', async () => {
    const damaged = await createCorruptStore([['openai-video-keys:openai', 'video_1']]);
    try {
      const { log, entries } = recordingLogger();
      const videoKeys = createOpenAiVideoKeys({
        store: damaged.store,
        platform: 'openai',
        keys: { byId: () => undefined, all: [] },
        call: {} as OpenAiCaller,
      });
      const ctx = { log, principal: undefined } as unknown as RequestContext;
      const error = await videoKeys.keyFor(ctx, 'video_1').then(() => undefined, (caught: unknown) => caught);
      expect(isGatewayError(error) && error.code).to.equal('GW_NOT_FOUND');
      expect(entries).to.have.length(1);
      expect(entries[0]).to.include({ level: 'warn', message: 'video key record unreadable; answered as not found', key: 'video_1' });
    } finally {
      await damaged.remove();
    }
  });
});
