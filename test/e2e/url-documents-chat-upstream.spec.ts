import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import { TEST_LICENSE } from '../helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../helpers/start-raw-upstream';
import { useSimulatorGateway } from '../helpers/use-simulator-gateway';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** Chat completions takes a file as base64 `file_data` only: a document given by URL is fetched by the gateway. */
describe('e2e: a document by URL for a chat upstream (Anthropic SDK → gateway → simulator)', function () {
  this.timeout(20_000);
  let files: RawUpstream;
  const env = useSimulatorGateway((sim) => ({ openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-0001' }] } }));
  before(async () => {
    files = await startRawUpstream();
    files.handle((req, res) => {
      if (req.url === '/doc.pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end(PDF);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  after(() => files.close());

  function client(): Anthropic {
    return new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/openai`, maxRetries: 0 });
  }

  it('is refused by the SSRF guard when it points at a private address (the operator has not allowed them)', async () => {
    env.sim.reset();
    const error = await client()
      .messages.create({
        model: 'gpt-4.1',
        max_tokens: 50,
        messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'url', url: `${files.url}/doc.pdf` } }, { type: 'text', text: 'summarise' }] }],
      })
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).to.be.within(400, 499);
    expect((error as Error).message).to.include('messages[0].content[0]');
    expect(env.sim.requests).to.deep.equal([]);
  });
});

describe('e2e: a document by URL for a chat upstream, private addresses allowed (Anthropic SDK → gateway → simulator)', function () {
  this.timeout(20_000);
  let files: RawUpstream;
  const env = useSimulatorGateway(
    (sim) => ({ openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-0001' }] } }),
    { media: { maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivateAddresses: true } },
  );
  let fetches = 0;
  before(async () => {
    files = await startRawUpstream();
    files.handle((_req, res) => {
      fetches += 1;
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(PDF);
    });
  });
  after(() => files.close());

  it('reaches the upstream inlined as base64 file_data, with its file name', async () => {
    env.sim.reset();
    const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/openai`, maxRetries: 0 });
    const message = await client.messages.create({
      model: 'gpt-4.1',
      max_tokens: 50,
      messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'url', url: `${files.url}/doc.pdf` }, title: 'doc.pdf' }, { type: 'text', text: 'summarise' }] }],
    });
    expect(message.content[0].type).to.equal('text');
    const body = env.sim.requests[0].body as { messages: Array<{ content: Array<{ type: string; file?: { file_data: string; filename: string } }> }> };
    const file = body.messages[0].content.find((part) => part.type === 'file')?.file;
    expect(file).to.deep.equal({ file_data: `data:application/pdf;base64,${PDF.toString('base64')}`, filename: 'doc.pdf' });
  });

  it('is refused before any fetch when a request gives more than 100 documents by URL (400 naming the first over)', async () => {
    env.sim.reset();
    fetches = 0;
    const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/openai`, maxRetries: 0 });
    const documents = Array.from({ length: 101 }, (_, i) => ({ type: 'document' as const, source: { type: 'url' as const, url: `${files.url}/doc${i}.pdf` } }));
    const error = await client.messages
      .create({ model: 'gpt-4.1', max_tokens: 50, messages: [{ role: 'user', content: [...documents, { type: 'text', text: 'summarise' }] }] })
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).to.include('messages[0].content[100]: a request may give at most 100 media by URL');
    expect(fetches).to.equal(0);
    expect(env.sim.requests).to.deep.equal([]);
  });
});
