import { expect } from 'chai';
import { contentText, planAnswer, planScenario, simId, THINKING_TEXT, type EarlyEndings, type Prompt } from '../../simulator/scenario';

const SETTINGS = { chunks: 3, chunkDelayMs: 0 };
const prompt = (lastText: string, extra: Partial<Prompt> = {}): Prompt => ({ lastText, toolResult: false, inputText: lastText, ...extra });
const TOOL = { name: 'lookup', schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } };

describe('simulator scenario', () => {
  it('echoes the text without its directives, in even chunks, with usage', () => {
    const s = planScenario(prompt('hello world [sim:chunks=2]'), SETTINGS);
    expect(s.text).to.equal('Echo: hello world');
    expect(s.textChunks).to.deep.equal(['Echo: hel', 'lo world']);
    expect(s).to.include({ inputTokens: 7, outputTokens: 2, thinkingTokens: 0, delayMs: 0, hang: false, midstreamError: false });
  });

  it('answers a tool result with "Tool said:" and never calls the tool again', () => {
    const s = planScenario(prompt('sunny [sim:tool]', { toolResult: true, tool: TOOL }), SETTINGS);
    expect(s.text).to.equal('Tool said: sunny');
    expect(s.toolCall).to.equal(undefined);
  });

  it('plans a tool call with argument fragments and no text', () => {
    const s = planScenario(prompt('go [sim:tool] [sim:chunks=4]', { tool: TOOL }), SETTINGS);
    expect(s.text).to.equal('');
    expect(s.textChunks).to.deep.equal([]);
    expect(s.toolCall).to.deep.include({ name: 'lookup', args: { q: 'x' }, json: '{"q":"x"}' });
    expect(s.toolCall?.fragments).to.have.length(4);
    expect(s.toolCall?.fragments.join('')).to.equal('{"q":"x"}');
    expect(s.outputTokens).to.equal(4);
  });

  it('falls back to the echo when [sim:tool] finds no declared tool', () => {
    expect(planScenario(prompt('go [sim:tool]'), SETTINGS).text).to.equal('Echo: go');
  });

  it('adds thinking tokens to the output', () => {
    const s = planScenario(prompt('hm [sim:thinking]'), SETTINGS);
    expect(s.thinking?.text).to.equal(THINKING_TEXT);
    expect(s.thinking?.chunks.join('')).to.equal(THINKING_TEXT);
    expect(s).to.include({ thinkingTokens: 2, outputTokens: 5 });
  });

  it('carries error, hang, midstream and delay switches and the configured delay', () => {
    expect(planScenario(prompt('[sim:error=500]'), SETTINGS).error).to.equal(500);
    expect(planScenario(prompt('[sim:hang]'), SETTINGS).hang).to.equal(true);
    expect(planScenario(prompt('[sim:midstream-error]'), SETTINGS).midstreamError).to.equal(true);
    expect(planScenario(prompt('[sim:delay=40]'), SETTINGS).delayMs).to.equal(40);
    expect(planScenario(prompt('x'), { chunks: 3, chunkDelayMs: 15 }).delayMs).to.equal(15);
  });

  it('joins text parts and makes fixed-length ids', () => {
    expect(contentText([{ type: 'text', text: 'a' }, { type: 'image_url' }, { type: 'input_text', text: 'b' }])).to.equal('ab');
    expect(contentText('plain')).to.equal('plain');
    expect(simId(7)).to.equal('sim000000000000000000007');
    expect(simId(12345, 10)).to.equal('sim0012345');
  });

  describe('planAnswer', () => {
    const recorder = () => {
      const calls: string[] = [];
      const endings: EarlyEndings = {
        error: (status) => calls.push(`error ${status}`),
        openStream: () => calls.push('open stream'),
        serverError: () => calls.push('server error'),
      };
      return { calls, endings };
    };
    const cases: Array<[string, boolean, string[]]> = [
      ['hi [sim:error=429]', true, ['error 429']],
      ['hi [sim:error=503]', false, ['error 503']],
      ['hi [sim:hang]', true, ['open stream']],
      ['hi [sim:hang]', false, []],
      ['hi [sim:midstream-error]', false, ['server error']],
    ];
    for (const [text, stream, expected] of cases) {
      it(`${text} (stream ${String(stream)}) ends the exchange early: ${expected.join(', ') || 'no answer'}`, () => {
        const { calls, endings } = recorder();
        expect(planAnswer(prompt(text), SETTINGS, stream, endings)).to.equal(undefined);
        expect(calls).to.deep.equal(expected);
      });
    }

    it('returns the scenario, ending nothing, when an answer is to follow', () => {
      for (const [text, stream] of [['hi', false], ['hi', true], ['hi [sim:midstream-error]', true]] as const) {
        const { calls, endings } = recorder();
        expect(planAnswer(prompt(text), SETTINGS, stream, endings)).to.deep.equal(planScenario(prompt(text), SETTINGS));
        expect(calls).to.deep.equal([]);
      }
    });
  });
});
