import { expect } from 'chai';
import { createModelPartList } from '../../../../core/codecs/gemini/create-model-part-list';

describe('createModelPartList', () => {
  it('keeps parts in order when no signature is held back', () => {
    const list = createModelPartList();
    list.add({ text: 'a' });
    list.add({ functionCall: { name: 'f', args: {} }, thoughtSignature: 'own' });
    expect(list.finish()).to.deep.equal([{ text: 'a' }, { functionCall: { name: 'f', args: {} }, thoughtSignature: 'own' }]);
  });

  it('puts a held signature on the next part', () => {
    const list = createModelPartList();
    list.holdSignature('sig-1');
    list.add({ text: 'answer' });
    list.add({ text: 'more' });
    expect(list.finish()).to.deep.equal([{ text: 'answer', thoughtSignature: 'sig-1' }, { text: 'more' }]);
  });

  it('puts a held signature on an empty text part before a part that has its own', () => {
    const list = createModelPartList();
    list.holdSignature('sig-1');
    list.add({ functionCall: { name: 'f', args: {} }, thoughtSignature: 'sig-2' });
    expect(list.finish()).to.deep.equal([{ text: '', thoughtSignature: 'sig-1' }, { functionCall: { name: 'f', args: {} }, thoughtSignature: 'sig-2' }]);
  });

  it('gives each of two signatures in a row an empty text part of its own at the end', () => {
    const list = createModelPartList();
    list.add({ text: 'answer' });
    list.holdSignature('sig-1');
    list.holdSignature('sig-2');
    expect(list.finish()).to.deep.equal([{ text: 'answer' }, { text: '', thoughtSignature: 'sig-1' }, { text: '', thoughtSignature: 'sig-2' }]);
  });
});
