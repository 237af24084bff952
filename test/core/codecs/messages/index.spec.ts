import { expect } from 'chai';
import { messagesCodec } from '../../../../core/codecs/messages';
import { GatewayError } from '../../../../core/errors/gateway-error';
import { readMessagesFixture } from './messages-fixtures';

describe('messagesCodec', () => {
  it('speaks the messages format and error family', () => {
    expect(messagesCodec.format).to.equal('messages');
    expect(messagesCodec.errorFamily).to.equal('messages');
  });

  it('renders errors in the Messages envelope, for a body and after a stream started', () => {
    const error = new GatewayError('GW_INVALID_REQUEST', 'messages[0].role: must be one of "user", "assistant", "system"');
    expect(messagesCodec.encodeError(error)).to.deep.equal({
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'messages[0].role: must be one of "user", "assistant", "system"' } },
    });
    const overloaded = new GatewayError('GW_UPSTREAM_OVERLOADED', 'Overloaded', { upstreamType: 'overloaded_error' });
    expect(messagesCodec.encodeStreamError(overloaded)).to.deep.equal([
      { event: 'error', data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) },
    ]);
  });

  it('goes request → upstream body → response → client body', () => {
    const req = messagesCodec.decodeRequest(readMessagesFixture('request-tools.json'));
    expect(messagesCodec.encodeRequest(req).value).to.have.property('tools');
    const res = messagesCodec.decodeResponse(readMessagesFixture('response-tool-use.json'));
    expect(messagesCodec.encodeResponse(res, req)).to.deep.include({ stop_reason: 'tool_use', id: 'msg_019Q1hrJbZG26Fb9BQhrkHEr' });
  });
});
