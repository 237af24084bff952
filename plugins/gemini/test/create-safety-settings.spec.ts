import { expect } from 'chai';
import { fixtureJson } from '../../../test/helpers/fixtures';
import { CIVIC_INTEGRITY, createSafetySettings, DEFAULT_SAFETY_SETTINGS } from '../src/create-safety-settings';

describe('createSafetySettings', () => {
  it('switches every adjustable category off by default, as in the shared fixture', () => {
    expect(DEFAULT_SAFETY_SETTINGS).to.deep.equal(fixtureJson<{ safetySettings: unknown[] }>('gemini/safety-settings-off.json').safetySettings);
    const categories = DEFAULT_SAFETY_SETTINGS.map((setting) => setting.category);
    expect(categories).not.to.include('HARM_CATEGORY_JAILBREAK');
    expect(categories.some((category) => category.startsWith('HARM_CATEGORY_IMAGE_'))).to.equal(false);
  });

  it('uses the operator\'s list instead, as given', () => {
    const configured = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }];
    const safety = createSafetySettings(configured);
    expect(safety.isDefault).to.equal(false);
    expect(safety.current()).to.deep.equal(configured);
  });

  it('drops the civic-integrity category from the default once refused', () => {
    const safety = createSafetySettings(undefined);
    safety.dropCivic();
    expect(safety.current().map((setting) => setting.category)).not.to.include(CIVIC_INTEGRITY);
    expect(safety.current()).to.have.length(4);
  });
});
