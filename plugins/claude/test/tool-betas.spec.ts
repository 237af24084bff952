import { expect } from 'chai';
import { betasForTools } from '../src/tool-betas';

describe('betasForTools', () => {
  it('names the beta flag of each server tool that needs one, once', () => {
    const tools = [
      { name: 'get_weather', input_schema: { type: 'object' } },
      { type: 'code_execution_20250825', name: 'code_execution' },
      { type: 'web_search_20250305', name: 'web_search' },
      { type: 'code_execution_20250825', name: 'code_execution' },
    ];
    expect(betasForTools(tools)).to.deep.equal(['code-execution-2025-08-25']);
  });

  it('needs none for plain tools, web search, or no tools at all', () => {
    expect(betasForTools([{ type: 'web_search_20250305', name: 'web_search' }, { name: 'f', input_schema: {} }, null, 'x'])).to.deep.equal([]);
    expect(betasForTools(undefined)).to.deep.equal([]);
  });
});
