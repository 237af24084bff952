import { expect } from 'chai';
import { createContentBlockAssembler } from '../../src/paused-turns/assemble-content-blocks';

describe('createContentBlockAssembler', () => {
  it('rebuilds each kind of block from its start and deltas, as a non-streaming answer holds it', () => {
    const blocks = createContentBlockAssembler();
    blocks.start(0, { type: 'thinking', thinking: '', signature: '' });
    blocks.delta(0, { type: 'thinking_delta', thinking: 'Search ' });
    blocks.delta(0, { type: 'thinking_delta', thinking: 'first.' });
    blocks.delta(0, { type: 'signature_delta', signature: 'EqQBsig==' });
    blocks.stop(0);
    blocks.start(1, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} });
    blocks.delta(1, { type: 'input_json_delta', partial_json: '{"query": "node' });
    blocks.delta(1, { type: 'input_json_delta', partial_json: ' lts", "n": 12345678901234567890}' });
    blocks.stop(1);
    const results = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://nodejs.org', title: 'Node', encrypted_content: 'Eq', page_age: null }] };
    blocks.start(2, results);
    blocks.stop(2);
    blocks.start(3, { type: 'text', text: '' });
    blocks.delta(3, { type: 'text_delta', text: 'Node 20 ' });
    const citation = { type: 'web_search_result_location', url: 'https://nodejs.org', title: 'Node', encrypted_index: 'Eo', cited_text: 'LTS' };
    blocks.delta(3, { type: 'citations_delta', citation });
    blocks.delta(3, { type: 'text_delta', text: 'is LTS.' });
    blocks.stop(3);
    const out = blocks.blocks();
    expect(out).to.have.length(4);
    expect(out[0]).to.deep.equal({ type: 'thinking', thinking: 'Search first.', signature: 'EqQBsig==' });
    expect(out[1]).to.include({ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search' });
    expect(JSON.stringify(out[1].input)).to.equal('{"query":"node lts","n":12345678901234567890}');
    expect(out[2]).to.deep.equal(results);
    expect(out[3]).to.deep.equal({ type: 'text', text: 'Node 20 is LTS.', citations: [citation] });
    expect(blocks.size()).to.equal(4);
  });

  it('keeps the start\'s empty input for a call that streamed none, or broken JSON', () => {
    const blocks = createContentBlockAssembler();
    blocks.start(0, { type: 'server_tool_use', id: 'a', name: 'web_search', input: {} });
    blocks.stop(0);
    blocks.start(1, { type: 'server_tool_use', id: 'b', name: 'web_search', input: {} });
    blocks.delta(1, { type: 'input_json_delta', partial_json: '{"query": ' });
    blocks.stop(1);
    expect(blocks.blocks().map((block) => block.input)).to.deep.equal([{}, {}]);
  });

  it('ignores deltas of blocks that never started and events that are not objects', () => {
    const blocks = createContentBlockAssembler();
    blocks.delta(0, { type: 'text_delta', text: 'lost' });
    blocks.start(1, 'not a block');
    blocks.start(2, { type: 'text', text: 'a' });
    blocks.delta(2, null);
    expect(blocks.blocks()).to.deep.equal([{ type: 'text', text: 'a' }]);
    expect(blocks.size()).to.equal(3);
  });
});
