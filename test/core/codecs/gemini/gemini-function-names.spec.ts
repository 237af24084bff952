import { expect } from 'chai';
import { geminiFunctionNames, requestFunctionNames } from '../../../../core/codecs/gemini/gemini-function-names';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';

/** Gemini's rule: a letter or `_` first, then letters, digits, `_ . : -`, 64 at most. */
const GEMINI_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

function declaring(...names: string[]): UnifiedRequest {
  return {
    model: 'gemini-2.5-flash',
    system: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
    tools: names.map((name) => ({ name, parameters: { type: 'object' } })),
    stream: false,
  };
}

describe('geminiFunctionNames', () => {
  it('keeps every name Gemini takes', () => {
    const valid = ['get_weather', 'files.read', 'mcp:search', '_private', 'a-b', 'x'.repeat(64)];
    expect([...geminiFunctionNames(declaring(...valid))]).to.deep.equal([]);
  });

  const renamed: Array<[string, string]> = [
    ['21st_magic_component_builder', '_21st_magic_component_builder'],
    ['2fa_code', '_2fa_code'],
    ['-dash', '_-dash'],
    ['.hidden', '_.hidden'],
    ['my tool/v2', 'my_tool_v2'],
    ['', '_'],
  ];
  for (const [name, gemini] of renamed) {
    it(`renames ${JSON.stringify(name)} → ${gemini}`, () => {
      expect(geminiFunctionNames(declaring(name)).get(name)).to.equal(gemini);
    });
  }

  it('cuts a long name with a hash of it, and numbers one that would meet a name of the request', () => {
    const long = `9${'x'.repeat(70)}`;
    const renames = geminiFunctionNames(declaring(long, '2fa', '_2fa'));
    expect(renames.get(long)).to.match(/^_9x{53}_[0-9a-f]{8}$/);
    expect(renames.get('2fa')).to.equal('_2fa_2');
    expect(renames.has('_2fa')).to.equal(false);
    for (const name of renames.values()) expect(name).to.match(GEMINI_NAME);
  });

  it('reads the names of calls, results and the forced choice too', () => {
    const request: UnifiedRequest = {
      ...declaring(),
      toolChoice: { name: '1st' },
      messages: [
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: '2nd', arguments: '{}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c9', name: '3rd', content: [] }] },
      ],
    };
    expect([...geminiFunctionNames(request)]).to.deep.equal([
      ['1st', '_1st'],
      ['2nd', '_2nd'],
      ['3rd', '_3rd'],
    ]);
  });
});

describe('requestFunctionNames', () => {
  it('gives the request\'s name back for a name Gemini got renamed, any other unchanged', () => {
    const nameOf = requestFunctionNames(declaring('2fa_code', 'get_weather'));
    expect(nameOf?.('_2fa_code')).to.equal('2fa_code');
    expect(nameOf?.('get_weather')).to.equal('get_weather');
    expect(nameOf?.('toString')).to.equal('toString');
  });

  it('is undefined when Gemini takes every name', () => {
    expect(requestFunctionNames(declaring('get_weather'))).to.equal(undefined);
  });
});
