import { expect } from 'chai';
import { createOpenCalls } from '../../../core/upstream/open-calls';

describe('createOpenCalls', () => {
  it('cuts every call still open, each with a reason of its own, and none that was removed', () => {
    const open = createOpenCalls<{ n: number }>();
    const cuts: Array<[string, { n: number }]> = [];
    let n = 0;
    const a = open.add((reason) => cuts.push(['a', reason]));
    const b = open.add((reason) => cuts.push(['b', reason]));
    open.add((reason) => cuts.push(['c', reason]));
    open.remove(b);
    open.remove(a);
    open.add((reason) => cuts.push(['d', reason]));
    open.cutAll(() => ({ n: ++n }));
    expect(cuts.map(([name]) => name).sort()).to.deep.equal(['c', 'd']);
    expect(cuts[0][1]).to.not.equal(cuts[1][1]);
    // Cut calls are gone: a second cutAll finds none.
    open.cutAll(() => ({ n: ++n }));
    expect(cuts).to.have.length(2);
  });

  it('removes from the head, the middle and the tail alike; removing twice does nothing', () => {
    for (const order of [[0, 1, 2], [1, 0, 2], [2, 1, 0], [1, 2, 0]]) {
      const open = createOpenCalls<void>();
      const cut: string[] = [];
      const calls = ['x', 'y', 'z'].map((name) => open.add(() => cut.push(name)));
      const [first, second] = order;
      open.remove(calls[first]);
      open.remove(calls[first]);
      open.remove(calls[second]);
      open.cutAll(() => undefined);
      expect(cut, `removed ${first}, ${second}`).to.deep.equal([['x', 'y', 'z'][order[2]]]);
    }
  });

  it('a cut that settles another open call, or opens a new one, neither skips nor repeats a call', () => {
    const open = createOpenCalls<void>();
    const cut: string[] = [];
    const later = open.add(() => cut.push('later'));
    open.add(() => {
      cut.push('first');
      // Its answer ends a sibling call on the way (both ends of one exchange), and a retry starts a call.
      open.remove(later);
      open.add(() => cut.push('retry'));
    });
    open.cutAll(() => undefined);
    expect(cut).to.deep.equal(['first']);
    open.cutAll(() => undefined);
    expect(cut).to.deep.equal(['first', 'retry']);
  });
});
