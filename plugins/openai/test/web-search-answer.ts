/** A Responses answer with web search, shaped like the API's (citations cover the inline markdown link). */
export function webSearchAnswer(): Record<string, unknown> {
  const text = 'Node.js 24 became LTS in October 2025 ([nodejs.org](https://nodejs.org/en/blog/release/v24.11.0)). Bun 1.3 added a SQL client! It ships Redis too ([bun.sh](https://bun.sh/blog/bun-v1.3)).';
  const cite = (url: string, title: string) => {
    const link = text.indexOf(`(${url})`);
    const start = text.lastIndexOf('([', link);
    return { type: 'url_citation', start_index: start, end_index: link + url.length + 3, url, title };
  };
  return {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    output: [
      { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'node lts', sources: [{ type: 'url', url: 'https://nodejs.org/en/blog/release/v24.11.0' }, { type: 'url', url: 'https://github.com/nodejs/release' }] } },
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text, annotations: [cite('https://nodejs.org/en/blog/release/v24.11.0', 'Node.js v24.11.0'), cite('https://bun.sh/blog/bun-v1.3', 'Bun v1.3')] }],
      },
    ],
  };
}
