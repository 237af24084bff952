import { expect } from 'chai';
import { coerceFormFields, isAsyncRequested } from '../../../core/media-api/coerce-form-fields';

describe('coerceFormFields', () => {
  const schema = { properties: { n: { type: 'integer' }, async: { type: 'boolean' }, seconds: { anyOf: [{ type: 'string' }] }, ratio: { type: 'number' } } };

  it('turns form strings into the booleans and numbers the schema declares', () => {
    expect(coerceFormFields({ n: '2', async: 'true', ratio: '0.5' }, schema)).to.deep.equal({ n: 2, async: true, ratio: 0.5 });
    expect(coerceFormFields({ async: 'false' }, schema)).to.deep.equal({ async: false });
  });

  it('leaves strings that do not read as the declared type, so validation names the field', () => {
    expect(coerceFormFields({ n: 'two', async: 'yes' }, schema)).to.deep.equal({ n: 'two', async: 'yes' });
  });

  it('never touches fields the schema keeps as strings, or fields it does not know', () => {
    expect(coerceFormFields({ seconds: '8', size: '1024x1024', extra: '3' }, schema)).to.deep.equal({ seconds: '8', size: '1024x1024', extra: '3' });
  });

  it('does not change the input object', () => {
    const body = { n: '2' };
    coerceFormFields(body, schema);
    expect(body).to.deep.equal({ n: '2' });
  });
});

describe('isAsyncRequested', () => {
  const cases: Array<[unknown, Record<string, string>, boolean]> = [
    [undefined, {}, false],
    [true, {}, true],
    [false, { async: 'true' }, false],
    [undefined, { async: 'true' }, true],
    [undefined, { async: '1' }, true],
    [undefined, { async: 'TRUE' }, true],
    [undefined, { async: 'false' }, false],
  ];
  for (const [body, query, expected] of cases) {
    it(`body ${String(body)}, query ${JSON.stringify(query)} → ${expected}`, () => {
      expect(isAsyncRequested(body, query)).to.equal(expected);
    });
  }
});
