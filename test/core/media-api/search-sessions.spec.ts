import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { buildSearchResults } from '../../../core/media-api/search-response';
import { createSearchSessions } from '../../../core/media-api/search-sessions';
import { createMemoryStore } from '../../../core/store/memory-store';
import { createCorruptStore } from '../../helpers/corrupt-store';
import { recordingLogger } from '../../helpers/recording-logger';

describe('createSearchSessions', () => {
  it('counts the turns of a session and resolves the refs of earlier turns to URLs', async () => {
    const sessions = createSearchSessions(createMemoryStore(), 'openai');
    const first = await sessions.begin({ id: 's1', opens: [], finds: [] });
    expect(first.turn).to.equal(0);
    await first.remember(buildSearchResults([{ url: 'https://a.example/' }, { url: 'https://b.example/' }], first.turn));

    const second = await sessions.begin({ id: 's1', opens: [{ ref_id: 'turn0search1', lineno: 3 }, { ref_id: 'https://c.example/' }], finds: [{ ref_id: 'turn0search0', pattern: 'x' }] });
    expect(second.turn).to.equal(1);
    expect(second.commands).to.deep.equal({
      opens: [{ ref_id: 'https://b.example/', lineno: 3 }, { ref_id: 'https://c.example/' }],
      finds: [{ ref_id: 'https://a.example/', pattern: 'x' }],
    });
    await second.remember([]);
    expect((await sessions.begin({ id: 's1', opens: [], finds: [] })).turn).to.equal(2);
  });

  it("keeps one license's session from another naming the same id: its refs do not resolve, its turns do not move", async () => {
    const sessions = createSearchSessions(createMemoryStore(), 'openai');
    const mine = await sessions.begin({ id: 'sess-A', opens: [], finds: [] }, 'lic-a');
    await mine.remember(buildSearchResults([{ url: 'https://private.example/' }], mine.turn));
    const theirs = await sessions.begin({ id: 'sess-A', opens: [{ ref_id: 'turn0search0' }], finds: [] }, 'lic-b').catch((error: unknown) => error);
    expect(isGatewayError(theirs) && theirs.param).to.equal('commands.open[0].ref_id');
    expect((await sessions.begin({ id: 'sess-A', opens: [{ ref_id: 'turn0search0' }], finds: [] }, 'lic-a')).turn).to.equal(1);
  });

  it('keeps sessions apart, and a call without id always at turn 0', async () => {
    const sessions = createSearchSessions(createMemoryStore(), 'openai');
    const a = await sessions.begin({ id: 'a', opens: [], finds: [] });
    await a.remember(buildSearchResults([{ url: 'https://a.example/' }], 0));
    expect((await sessions.begin({ id: 'b', opens: [], finds: [] })).turn).to.equal(0);
    const anonymous = await sessions.begin({ opens: [], finds: [] });
    await anonymous.remember(buildSearchResults([{ url: 'https://a.example/' }], 0));
    expect((await sessions.begin({ opens: [], finds: [] })).turn).to.equal(0);
  });

  it('gives parallel calls of one session turns of their own, and keeps the refs of both (Codex searches in parallel)', async () => {
    const sessions = createSearchSessions(createMemoryStore(), 'openai');
    const [a, b] = await Promise.all([sessions.begin({ id: 's', opens: [], finds: [] }), sessions.begin({ id: 's', opens: [], finds: [] })]);
    expect([a.turn, b.turn]).to.deep.equal([0, 1]);
    await Promise.all([
      a.remember(buildSearchResults([{ url: 'https://alpha.example/' }], a.turn)),
      b.remember(buildSearchResults([{ url: 'https://beta.example/' }], b.turn)),
    ]);
    const next = await sessions.begin({ id: 's', opens: [{ ref_id: 'turn0search0' }, { ref_id: 'turn1search0' }], finds: [] });
    expect(next.turn).to.equal(2);
    expect(next.commands.opens.map((open) => open.ref_id)).to.deep.equal(['https://alpha.example/', 'https://beta.example/']);
  });

  it('answers 400 naming an unknown ref', async () => {
    const sessions = createSearchSessions(createMemoryStore(), 'openai');
    const error = await sessions.begin({ id: 's', opens: [{ ref_id: 'turn0search9' }], finds: [] }).catch((e: unknown) => e);
    expect(isGatewayError(error) && error.status).to.equal(400);
    expect(isGatewayError(error) && error.param).to.equal('commands.open[0].ref_id');
  });

  it('answers 400 for a ref named after an inherited property (constructor, __proto__)', async () => {
    const sessions = createSearchSessions(createMemoryStore(), 'openai');
    const first = await sessions.begin({ id: 's', opens: [], finds: [] });
    await first.remember(buildSearchResults([{ url: 'https://a.example/' }], first.turn));
    for (const ref of ['constructor', '__proto__', 'toString']) {
      const error = await sessions.begin({ id: 's', opens: [{ ref_id: ref }], finds: [] }).catch((e: unknown) => e);
      expect(isGatewayError(error) && error.message, ref).to.match(/unknown reference/);
    }
  });

  it('reads a session record that cannot be read back as a new session, with a warning, and writes a good one over it', async () => {
    const damaged = await createCorruptStore([['search-sessions:openai', 's1']]);
    try {
      const { log, entries } = recordingLogger();
      const sessions = createSearchSessions(damaged.store, 'openai');
      const first = await sessions.begin({ id: 's1', opens: [], finds: [] }, undefined, log);
      expect(first.turn).to.equal(0);
      expect(entries.map((entry) => entry.message)).to.deep.equal(['search session record unreadable; read as a new session']);
      await first.remember(buildSearchResults([{ url: 'https://a.example/' }], first.turn));
      const second = await createSearchSessions(damaged.store, 'openai').begin({ id: 's1', opens: [{ ref_id: 'turn0search0' }], finds: [] }, undefined, log);
      expect(second.turn).to.equal(1);
      expect(second.commands.opens).to.deep.equal([{ ref_id: 'https://a.example/' }]);
    } finally {
      await damaged.remove();
    }
  });
});
