import { expect } from 'chai';
import { fromGenerateContentImages } from '../src/from-gemini-images';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const answer = (usageMetadata: Record<string, unknown>) => ({ candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] }, finishReason: 'STOP' }], usageMetadata });

describe('fromGenerateContentImages: usage', () => {
  it("gives OpenAI's input_tokens_details from the prompt's modalities (an edit's image and text)", () => {
    const { usage } = fromGenerateContentImages(answer({ promptTokenCount: 270, candidatesTokenCount: 1290, totalTokenCount: 1560, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 12 }, { modality: 'IMAGE', tokenCount: 258 }] }));
    expect(usage).to.deep.equal({ input_tokens: 270, input_tokens_details: { image_tokens: 258, text_tokens: 12 }, output_tokens: 1290, total_tokens: 1560 });
  });

  it('counts the prompt as text when Gemini gives no details', () => {
    const { usage } = fromGenerateContentImages(answer({ promptTokenCount: 9, candidatesTokenCount: 1290 }));
    expect(usage).to.deep.equal({ input_tokens: 9, input_tokens_details: { image_tokens: 0, text_tokens: 9 }, output_tokens: 1290, total_tokens: 1299 });
  });
});
