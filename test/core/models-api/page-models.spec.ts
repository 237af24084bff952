import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { anthropicModelPage, geminiModelPage } from '../../../core/models-api/page-models';

const models = Array.from({ length: 5 }, (_, index) => ({ id: `m${index}` }));
const ids = (page: { items: Array<{ id: string }> }) => page.items.map((model) => model.id);

function refusal(run: () => unknown): { param?: string; status: number } {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return { param: error.param, status: error.status };
  }
  throw new Error('expected a 400');
}

describe('anthropicModelPage', () => {
  it('pages forward by limit and after_id, and back by before_id', () => {
    const first = anthropicModelPage(models, { limit: '2' });
    expect([ids(first), first.hasMore]).to.deep.equal([['m0', 'm1'], true]);
    const next = anthropicModelPage(models, { limit: '2', after_id: 'm1' });
    expect([ids(next), next.hasMore]).to.deep.equal([['m2', 'm3'], true]);
    const last = anthropicModelPage(models, { limit: '2', after_id: 'm3' });
    expect([ids(last), last.hasMore]).to.deep.equal([['m4'], false]);
    const back = anthropicModelPage(models, { limit: '2', before_id: 'm3' });
    expect([ids(back), back.hasMore]).to.deep.equal([['m1', 'm2'], true]);
    const start = anthropicModelPage(models, { limit: '2', before_id: 'm1' });
    expect([ids(start), start.hasMore]).to.deep.equal([['m0'], false]);
  });

  it('defaults to 20 and caps at 1000', () => {
    const many = Array.from({ length: 1200 }, (_, index) => ({ id: `m${index}` }));
    expect(anthropicModelPage(many, {}).items).to.have.length(20);
    expect(anthropicModelPage(many, { limit: '5000' }).items).to.have.length(1000);
  });

  it('refuses a limit that is not a whole number from 1, and a cursor that names no model', () => {
    expect(refusal(() => anthropicModelPage(models, { limit: 'ten' }))).to.deep.equal({ param: 'limit', status: 400 });
    expect(refusal(() => anthropicModelPage(models, { limit: '0' }))).to.deep.equal({ param: 'limit', status: 400 });
    expect(refusal(() => anthropicModelPage(models, { after_id: 'gone' }))).to.deep.equal({ param: 'after_id', status: 400 });
    expect(refusal(() => anthropicModelPage(models, { before_id: 'gone' }))).to.deep.equal({ param: 'before_id', status: 400 });
  });
});

describe('geminiModelPage', () => {
  it('pages by pageSize with the offset as the next pageToken', () => {
    const first = geminiModelPage(models, { pageSize: '2' });
    expect([ids(first), first.nextOffset]).to.deep.equal([['m0', 'm1'], 2]);
    const next = geminiModelPage(models, { pageSize: '2', pageToken: '2' });
    expect([ids(next), next.nextOffset]).to.deep.equal([['m2', 'm3'], 4]);
    const last = geminiModelPage(models, { pageSize: '2', pageToken: '4' });
    expect([ids(last), last.nextOffset, last.hasMore]).to.deep.equal([['m4'], undefined, false]);
  });

  it('takes a missing or non-positive pageSize as 50, and an empty pageToken as the start', () => {
    const many = Array.from({ length: 60 }, (_, index) => ({ id: `m${index}` }));
    expect(geminiModelPage(many, {}).items).to.have.length(50);
    expect(geminiModelPage(many, { pageSize: '0', pageToken: '' }).items).to.have.length(50);
    expect(geminiModelPage(many, { pageSize: '-3' }).items).to.have.length(50);
  });

  it('refuses a pageToken this list did not give, and a pageSize that is not a number', () => {
    expect(refusal(() => geminiModelPage(models, { pageToken: 'abc' }))).to.deep.equal({ param: 'pageToken', status: 400 });
    expect(refusal(() => geminiModelPage(models, { pageToken: '6' }))).to.deep.equal({ param: 'pageToken', status: 400 });
    expect(refusal(() => geminiModelPage(models, { pageSize: 'many' }))).to.deep.equal({ param: 'pageSize', status: 400 });
  });
});
