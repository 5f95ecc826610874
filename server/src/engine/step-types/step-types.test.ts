import { getStepDescription, stepCategories, stepDescriptions } from '.';

describe('the step registry', () => {
  it('has unique ids and finds each by id', () => {
    const ids = stepDescriptions.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const type of stepDescriptions) expect(getStepDescription(type.id)).toBe(type);
    expect(getStepDescription('nope')).toBeUndefined();
  });

  it('covers every category, with sensible inputs', () => {
    for (const category of stepCategories) expect(stepDescriptions.some((t) => t.category === category)).toBe(true);
    for (const type of stepDescriptions) {
      if (type.category === 'source') expect(type.inputs).toEqual({ min: 0, max: 0 });
      else expect(type.inputs.min).toBeGreaterThanOrEqual(1);
      if (type.inputs.max !== null) expect(type.inputs.max).toBeGreaterThanOrEqual(type.inputs.min);
    }
    expect(getStepDescription('join')!.inputs).toEqual({ min: 2, max: 2 });
    expect(getStepDescription('union')!.inputs).toEqual({ min: 2, max: null });
  });

  it('describes every param, with defaults that fit their own rules', () => {
    for (const type of stepDescriptions) {
      const names = type.params.map((p) => p.name);
      expect(new Set(names).size).toBe(names.length);
      for (const p of type.params) {
        expect([type.id, p.name, p.label.length > 0, p.help.length > 10]).toEqual([type.id, p.name, true, true]);
        if (p.type === 'enum') expect(p.options?.length).toBeGreaterThan(1);
        if (p.type === 'enum' && p.default !== undefined) expect(p.options).toContain(p.default);
        if (p.input_index !== undefined) expect(p.input_index).toBeLessThan(type.inputs.min);
        if (p.same_length_as) expect(names).toContain(p.same_length_as);
      }
    }
  });

  it('is serialisable data: a JSON round trip changes nothing', () => {
    expect(JSON.parse(JSON.stringify(stepDescriptions))).toEqual(stepDescriptions);
  });

  it('has Chinese texts for every step type and every param', () => {
    for (const type of stepDescriptions) {
      const zh = type.i18n?.['zh-CN'];
      expect([type.id, Boolean(zh?.name && zh.description && zh.cost_note)]).toEqual([type.id, true]);
      expect([type.id, Object.keys(zh?.params ?? {}).sort()]).toEqual([type.id, type.params.map((p) => p.name).sort()]);
      for (const texts of Object.values(zh?.params ?? {})) expect(/[\u4e00-\u9fff]/.test(texts.label + texts.help)).toBe(true);
    }
  });
});
