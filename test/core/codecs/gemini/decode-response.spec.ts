import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { decodeResponse } from '../../../../core/codecs/gemini/decode-response';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import type { UnifiedResponse } from '../../../../core/unified/unified-response';
import { FIXTURES_DIR } from '../../../helpers/fixtures';

const FIXTURES = FIXTURES_DIR + '/gemini';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES}/${name}`, 'utf8'));
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('gemini decodeResponse', () => {
  describe('golden: response fixtures', () => {
    const cases: Array<[string, Omit<UnifiedResponse, 'created'>]> = [
      [
        'response-basic.json',
        {
          id: 'mHb1aPq8Go2Fz7IPk5TUoQs',
          model: 'gemini-2.5-flash',
          content: [{ type: 'text', text: 'Hello, nice to meet you!' }],
          finishReason: 'stop',
          usage: { inputTokens: 13, outputTokens: 51, totalTokens: 64, reasoningTokens: 44 },
        },
      ],
      [
        'response-code-execution.json',
        {
          id: 'rTf5aKc2Mdqkz7IPw6jY8Qo',
          model: 'gemini-2.5-flash',
          content: [
            { type: 'text', text: "I'll compute this with a short Python script." },
            {
              type: 'text',
              text: '\n```python\nprimes = []\nn = 2\nwhile len(primes) < 10:\n    if all(n % p for p in primes):\n        primes.append(n)\n    n += 1\nprint(primes, sum(primes))\n```\n',
            },
            { type: 'text', text: '\n```output\n[2, 3, 5, 7, 11, 13, 17, 19, 23, 29] 129\n```\n' },
            { type: 'text', text: 'The sum of the first 10 prime numbers is **129**.' },
          ],
          finishReason: 'stop',
          usage: { inputTokens: 25, outputTokens: 266, totalTokens: 433, reasoningTokens: 148 },
        },
      ],
      [
        'response-function-call.json',
        {
          id: 'pQd3aJz0K7yFz7IPr8Hh4Aw',
          model: 'gemini-2.5-flash',
          content: [
            {
              type: 'tool_call',
              id: 'call_f0735289_0',
              name: 'get_weather',
              arguments: '{"city":"Paris","unit":"celsius"}',
              signature:
                'CpUCAdHtim9xq3VbR0kZt1mN8pWc4yLs6uEa2oDf7gHj5kKl9zXv3bQn1wEr6tYu8iOp0aSd2fGh4jKl6zXc8vBn0mQw2eRt4yUi6oPa8sDf0gHj2kLz4xCv6bNm8qWe0rTy2uIo4pAs6dFg8hJk0lZx2cVb4nM=',
            },
            { type: 'tool_call', id: 'call_f0735289_1', name: 'get_weather', arguments: '{"city":"Tokyo","unit":"celsius"}' },
          ],
          finishReason: 'tool_calls',
          usage: { inputTokens: 61, outputTokens: 120, totalTokens: 181, reasoningTokens: 84 },
        },
      ],
      [
        'response-image.json',
        {
          id: 'sUg6aN3wB9ukz7IP2-bL0Ag',
          model: 'gemini-2.5-flash-image',
          content: [
            { type: 'text', text: 'Here is a single orange pixel.' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG } },
          ],
          finishReason: 'stop',
          usage: { inputTokens: 11, outputTokens: 1297, totalTokens: 1308 },
        },
      ],
      [
        'response-prompt-blocked.json',
        {
          id: 'uWi8aPf2D1zkz7IPs-ot8Qw',
          model: 'gemini-2.5-flash',
          content: [],
          finishReason: 'content_filter',
          usage: { inputTokens: 9, outputTokens: 0, totalTokens: 9 },
        },
      ],
      [
        'response-thinking.json',
        {
          id: 'tVh7aOe1C0ykz7IPq-ns8Qs',
          model: 'gemini-3-flash-preview',
          content: [
            { type: 'reasoning', text: '**Checking divisibility**\n\nI multiply 7 by 153 and get 1071, so the division is exact.\n', provider: 'gemini' },
            {
              type: 'reasoning',
              text: '',
              signature:
                'EpwDCpkDbjQLnP+zepicpUTmu3gKLHiQHT+zNzh2hRGjBhevoB1L9RIvNEVUxTveLruM0rfj0WAK1jHDhaXXzOI8d4VFmtvBtMkA/+SNV1tdpcY4BAEl9l2w/j4kSUt26phkV9mGCE/tCLl4r019GWp0RqhrWACeY2thHbFiEbZamq3/KcXlLZxQjFAjRzRNjAetkcvWBor8df9i',
              provider: 'gemini',
            },
            { type: 'text', text: 'Yes — 1071 = 7 × 153.' },
          ],
          finishReason: 'stop',
          usage: { inputTokens: 20, outputTokens: 149, totalTokens: 169, reasoningTokens: 137 },
        },
      ],
    ];
    for (const [name, expected] of cases) {
      it(`decodes ${name}`, () => {
        const before = Math.floor(Date.now() / 1000);
        const { created, ...decoded } = decodeResponse(fixture(name));
        expect(decoded).to.deep.equal(expected);
        // The Developer API sends no timestamp: the decoding time stands in.
        expect(created).to.be.within(before, Math.floor(Date.now() / 1000));
      });
    }
  });

  it('gives the calls of different responses different ids and keeps ids Gemini sent', () => {
    const call = (responseId: string, id?: string): unknown => ({
      responseId,
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'f', args: {}, ...(id ? { id } : {}) } }] }, finishReason: 'STOP' }],
    });
    const first = decodeResponse(call('r1')).content[0];
    const second = decodeResponse(call('r2')).content[0];
    expect(first.type === 'tool_call' && second.type === 'tool_call' && first.id !== second.id).to.equal(true);
    expect(decodeResponse(call('r1', 'abc')).content[0]).to.deep.include({ id: 'abc' });
  });

  it('maps finish reasons, cached tokens and Vertex createTime', () => {
    const decoded = decodeResponse({
      candidates: [{ content: { role: 'model', parts: [{ text: 'cut' }] }, finishReason: 'MAX_TOKENS' }],
      usageMetadata: { promptTokenCount: 100, cachedContentTokenCount: 80, candidatesTokenCount: 5, totalTokenCount: 105 },
      createTime: '2025-01-01T00:00:10.5Z',
    });
    expect(decoded.finishReason).to.equal('length');
    expect(decoded.usage).to.deep.equal({ inputTokens: 100, outputTokens: 5, totalTokens: 105, cachedInputTokens: 80 });
    expect(decoded.created).to.equal(1735689610);
    expect(decoded.id).to.match(/^gemini-[0-9a-f]{8}$/);
  });

  it('maps a SAFETY stop with no content to content_filter', () => {
    const decoded = decodeResponse({ candidates: [{ finishReason: 'SAFETY', index: 0 }], responseId: 'x' });
    expect(decoded).to.deep.include({ finishReason: 'content_filter', content: [] });
  });

  it('throws a failed turn (MALFORMED_FUNCTION_CALL, OTHER) as a 502 upstream error, not an empty answer', () => {
    const malformed = thrown(() => decodeResponse({ candidates: [{ content: { role: 'model' }, finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 'Malformed function call: ls(', index: 0 }] }));
    expect(malformed).to.include({ code: 'GW_UPSTREAM_ERROR', status: 502, message: 'upstream Gemini ended the turn with MALFORMED_FUNCTION_CALL: Malformed function call: ls(' });
    expect(thrown(() => decodeResponse({ candidates: [{ finishReason: 'OTHER', index: 0 }] }))).to.include({ message: 'upstream Gemini ended the turn with OTHER' });
    expect(decodeResponse({ candidates: [{ finishReason: 'LANGUAGE', index: 0 }] })).to.deep.include({ finishReason: 'content_filter', content: [] });
  });

  it('throws an error envelope in a 200 body as the upstream error', () => {
    const error = thrown(() => decodeResponse(fixture('error-429.json')));
    expect(isGatewayError(error)).to.equal(true);
    if (!isGatewayError(error)) return;
    expect(error.code).to.equal('GW_UPSTREAM_ERROR');
    expect(error.status).to.equal(429);
    expect(error.upstreamType).to.equal('RESOURCE_EXHAUSTED');
    expect(error.retryAfterMs).to.equal(37000);
    expect(error.message).to.contain('You exceeded your current quota');
  });

  it('throws an error given as a string in a 200 body (a Gemini-compatible proxy) as a 502 with its text, not an empty answer', () => {
    const error = thrown(() => decodeResponse({ error: 'Upstream provider error: quota exceeded' }));
    expect(isGatewayError(error) && [error.code, error.status, error.message]).to.deep.equal(['GW_UPSTREAM_ERROR', 502, 'Upstream provider error: quota exceeded']);
  });

  for (const [name, status, upstreamType] of [
    ['error-400.json', 400, 'INVALID_ARGUMENT'],
    ['error-400-api-key.json', 400, 'INVALID_ARGUMENT'],
    ['error-429.json', 429, 'RESOURCE_EXHAUSTED'],
  ] as const) {
    it(`decodes ${name} as GW_UPSTREAM_ERROR ${status} ${upstreamType}`, () => {
      const error = thrown(() => decodeResponse(fixture(name)));
      expect(isGatewayError(error) && [error.code, error.status, error.upstreamType]).to.deep.equal(['GW_UPSTREAM_ERROR', status, upstreamType]);
    });
  }

  it('reads an API key error reason and a 503 as overloaded', () => {
    const keyError = thrown(() => decodeResponse(fixture('error-400-api-key.json')));
    expect(isGatewayError(keyError) && keyError.upstreamCode).to.equal('API_KEY_INVALID');
    const overloaded = thrown(() => decodeResponse({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }));
    expect(isGatewayError(overloaded) && overloaded.code).to.equal('GW_UPSTREAM_OVERLOADED');
  });

  const bad: Array<[string, unknown]> = [
    ['not an object', 'oops'],
    ['candidates not an array', { candidates: {} }],
    ['a part text that is not a string', { candidates: [{ content: { parts: [{ text: 1 }] } }] }],
    ['a negative token count', { usageMetadata: { promptTokenCount: -1 } }],
  ];
  for (const [what, body] of bad) {
    it(`answers GW_UPSTREAM_BAD_RESPONSE for ${what}`, () => {
      const error = thrown(() => decodeResponse(body));
      expect(isGatewayError(error) && error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    });
  }
});
