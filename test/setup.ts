import nock from 'nock';

/** Root hooks: no test reaches the network except loopback; nock interceptors never leak between tests. */
export const mochaHooks = {
  beforeAll(): void {
    nock.disableNetConnect();
    nock.enableNetConnect(/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/);
  },
  afterEach(): void {
    nock.cleanAll();
  },
};
