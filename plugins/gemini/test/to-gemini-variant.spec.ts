import { expect } from 'chai';
import type { UnifiedRequest } from '@gateway/core';
import { isGeminiImageModel, toGeminiVariant } from '../src/to-gemini-variant';

function request(extra: Partial<UnifiedRequest>): UnifiedRequest {
  return { model: 'gemini-2.5-flash', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, ...extra };
}

describe('toGeminiVariant', () => {
  it('leaves a plain model alone', () => {
    const input = request({});
    expect(toGeminiVariant(input)).to.equal(input);
  });

  it('strips -thinking and asks for thoughts', () => {
    const out = toGeminiVariant(request({ model: 'gemini-2.5-flash-thinking' }));
    expect(out.model).to.equal('gemini-2.5-flash');
    expect(out.reasoning).to.deep.equal({ includeThoughts: true });
  });

  it('keeps the client\'s effort alongside', () => {
    const out = toGeminiVariant(request({ model: 'gemini-2.5-pro-thinking', reasoning: { enabled: true, effort: 'high' } }));
    expect(out.reasoning).to.deep.equal({ enabled: true, effort: 'high', includeThoughts: true });
  });

  it('lets the client\'s own includeThoughts win', () => {
    const out = toGeminiVariant(request({ model: 'gemini-2.5-flash-thinking', reasoning: { includeThoughts: false } }));
    expect(out.reasoning).to.deep.equal({ includeThoughts: false });
  });

  it('does not ask for thoughts when the client switched thinking off', () => {
    const out = toGeminiVariant(request({ model: 'gemini-2.5-flash-thinking', reasoning: { enabled: false } }));
    expect(out.model).to.equal('gemini-2.5-flash');
    expect(out.reasoning).to.deep.equal({ enabled: false });
  });

  it('does not strip a model called just "-thinking"', () => {
    expect(toGeminiVariant(request({ model: '-thinking' })).model).to.equal('-thinking');
  });

  it('asks an image model for TEXT and IMAGE, with the nearest ratio to an OpenAI size', () => {
    const out = toGeminiVariant(request({ model: 'gemini-2.5-flash-image', extensions: { 'chat-completions': { size: '1792x1024' } } }));
    expect(out.outputModalities).to.deep.equal(['text', 'image']);
    expect(out.imageAspectRatio).to.equal('16:9');
  });

  it('takes an explicit aspect_ratio and keeps the client\'s modalities and ratio', () => {
    expect(toGeminiVariant(request({ model: 'gemini-3-pro-image-preview', extensions: { 'chat-completions': { aspect_ratio: '9:16' } } })).imageAspectRatio).to.equal('9:16');
    const own = toGeminiVariant(request({ model: 'gemini-2.5-flash-image', outputModalities: ['image'], imageAspectRatio: '4:3', extensions: { 'chat-completions': { size: '1024x1024' } } }));
    expect(own.outputModalities).to.deep.equal(['image']);
    expect(own.imageAspectRatio).to.equal('4:3');
  });

  it('recognises image models by name', () => {
    expect(isGeminiImageModel('gemini-2.5-flash-image-preview')).to.equal(true);
    expect(isGeminiImageModel('gemini-2.5-flash')).to.equal(false);
  });
});
