import { expect } from 'chai';
import OpenAI from 'openai';
import type { Simulator } from '../../simulator';
import { TEST_LICENSE } from '../helpers/start-gateway';
import { useSimulatorGateway } from '../helpers/use-simulator-gateway';

/** Codex's freeform `apply_patch`, as it declares it for models that take custom tools. */
const APPLY_PATCH: OpenAI.Responses.CustomTool = {
  type: 'custom',
  name: 'apply_patch',
  description: 'Use the `apply_patch` tool to edit files. This is a FREEFORM tool, so do not wrap the patch in JSON.',
  format: { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' },
};

type Platform = 'claude' | 'gemini';

/** The tools the upstream was declared, by vendor: Anthropic `tools[]`, Gemini `functionDeclarations`. */
function upstreamTools(sim: Simulator, platform: Platform): Array<Record<string, unknown>> {
  const body = sim.requests[sim.requests.length - 1].body as Record<string, any>;
  return platform === 'claude' ? body.tools : body.tools.flatMap((t: Record<string, any>) => t.functionDeclarations ?? []);
}

/**
 * A Responses client's custom tool reaches upstreams that know only functions as a function of one string argument,
 * and the model's call comes back to the client as a `custom_tool_call` it can answer with `custom_tool_call_output`.
 */
describe('e2e: Codex freeform (custom) tools on Claude and Gemini (openai SDK → gateway → simulator)', function () {
  this.timeout(20_000);
  const env = useSimulatorGateway((sim) => ({
    claude: { plugin: 'claude', baseUrl: sim.anthropicUrl, credentials: [{ apiKey: 'sk-ant-sim-upstream-0001' }] },
    gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: 'AIzaSy-sim-upstream-0001' }] },
  }));

  const cases: Array<[Platform, string]> = [
    ['claude', 'claude-sonnet-4-5'],
    ['gemini', 'gemini-2.5-flash'],
  ];
  for (const [platform, model] of cases) {
    for (const streaming of [false, true]) {
      it(`${platform}, ${streaming ? 'streaming' : 'whole'}: the call comes back as custom_tool_call, and its output continues the conversation`, async () => {
        const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/${platform}/v1`, maxRetries: 0 });
        const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: '[sim:tool] add a line to notes.txt' }];
        const params = { model, input, tools: [APPLY_PATCH], store: false };
        const first = streaming ? await client.responses.stream(params).finalResponse() : await client.responses.create(params);

        const [declared] = upstreamTools(env.sim, platform);
        expect(declared.name).to.equal('apply_patch');
        const schema = (platform === 'claude' ? declared.input_schema : declared.parametersJsonSchema ?? declared.parameters) as Record<string, any>;
        expect(schema.required).to.deep.equal(['input']);
        expect(schema.properties.input.description).to.include('start: begin_patch hunk+ end_patch');

        const call = first.output.find((item) => item.type === 'custom_tool_call');
        if (call?.type !== 'custom_tool_call') throw new Error(`expected a custom_tool_call, got ${JSON.stringify(first.output)}`);
        // The simulator fills a required string with 'x'; the client gets it unwrapped from `{"input": …}`.
        expect(call).to.include({ name: 'apply_patch', input: 'x' });
        expect(call.id).to.match(/^ctc_/);

        const second = await client.responses.create({
          model,
          tools: [APPLY_PATCH],
          store: false,
          input: [...input, { type: 'custom_tool_call', call_id: call.call_id, name: call.name, input: call.input }, { type: 'custom_tool_call_output', call_id: call.call_id, output: 'Done!' }],
        });
        expect(second.output_text).to.equal('Tool said: Done!');
      });
    }
  }
});
