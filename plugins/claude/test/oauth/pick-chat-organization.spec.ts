import { expect } from 'chai';
import { pickChatOrganization } from '../../src/oauth/pick-chat-organization';

describe('pickChatOrganization', () => {
  const cases: Array<[string, unknown, string | undefined]> = [
    ['the chat organisation with the most capabilities', [{ uuid: 'a', capabilities: ['chat'] }, { uuid: 'b', capabilities: ['chat', 'claude_max'] }, { uuid: 'c', capabilities: ['api', 'x', 'y'] }], 'b'],
    ['none without chat capability', [{ uuid: 'c', capabilities: ['api'] }], undefined],
    ['none from a body that is not a list', { error: 'x' }, undefined],
    ['skips malformed entries', [null, { uuid: 1, capabilities: ['chat'] }, { uuid: 'ok', capabilities: ['chat'] }], 'ok'],
  ];
  for (const [name, body, expected] of cases) {
    it(name, () => expect(pickChatOrganization(body)).to.equal(expected));
  }
});
