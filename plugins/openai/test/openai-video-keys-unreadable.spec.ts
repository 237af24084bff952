import { expect } from 'chai';
import type { RequestContext } from '@gateway/core';
import { createCorruptStore } from '../../../test/helpers/corrupt-store';
import { recordingLogger } from '../../../test/helpers/recording-logger';
import type { OpenAiCaller } from '../src/call-openai';
import { createOpenAiVideoKeys } from '../src/openai-video-keys';

describe('createOpenAiVideoKeys: a record that cannot be read back', () => {
  it('reads as no record (the key rotation serves the video), with a warning, where keyFor failed', async () => {
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
      expect(await videoKeys.keyFor(ctx, 'video_1')).to.equal(undefined);
      expect(entries).to.have.length(1);
      expect(entries[0]).to.include({ level: 'warn', message: 'video key record unreadable; looking the video up again', videoId: 'video_1' });
    } finally {
      await damaged.remove();
    }
  });
});
