import { expect } from 'chai';
import { sumMessagesUsage } from '../../src/paused-turns/sum-messages-usage';

describe('sumMessagesUsage', () => {
  it('adds counts, nested counts included, and keeps the later call\'s labels', () => {
    const first = { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 0, server_tool_use: { web_search_requests: 3 }, service_tier: 'standard' };
    const second = { input_tokens: 900, output_tokens: 40, cache_read_input_tokens: 50, server_tool_use: { web_search_requests: 2, web_fetch_requests: 1 }, service_tier: 'priority' };
    expect(sumMessagesUsage(first, second)).to.deep.equal({
      input_tokens: 1000,
      output_tokens: 60,
      cache_read_input_tokens: 50,
      server_tool_use: { web_search_requests: 5, web_fetch_requests: 1 },
      service_tier: 'priority',
    });
  });

  it('takes either side whole when the other has no usage, and a null never hides a count', () => {
    expect(sumMessagesUsage(undefined, { output_tokens: 3 })).to.deep.equal({ output_tokens: 3 });
    expect(sumMessagesUsage({ output_tokens: 3 }, null)).to.deep.equal({ output_tokens: 3 });
    expect(sumMessagesUsage({ cache_creation: { ephemeral_5m_input_tokens: 4 } }, { cache_creation: null })).to.deep.equal({ cache_creation: { ephemeral_5m_input_tokens: 4 } });
    expect(sumMessagesUsage(undefined, undefined)).to.deep.equal({});
  });

  it('leaves its arguments as they were', () => {
    const first = { input_tokens: 1, server_tool_use: { web_search_requests: 1 } };
    sumMessagesUsage(first, { input_tokens: 2, server_tool_use: { web_search_requests: 2 } });
    expect(first).to.deep.equal({ input_tokens: 1, server_tool_use: { web_search_requests: 1 } });
  });
});
