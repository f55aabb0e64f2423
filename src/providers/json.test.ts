import { describe, expect, it } from 'vitest';
import { readErrorFields } from './error-mapping.ts';
import { arrayAt, fieldAt, numberAt, parseJson, recordAt, stringAt } from './json.ts';

describe('provider JSON readers', () => {
  it('read the fields a provider sent', () => {
    const json = parseJson('{"text":"hi","count":3,"usage":{"n":1},"items":[1,2]}');
    expect(stringAt(json, 'text')).toBe('hi');
    expect(numberAt(json, 'count')).toBe(3);
    expect(recordAt(json, 'usage')).toEqual({ n: 1 });
    expect(arrayAt(json, 'items')).toEqual([1, 2]);
    expect(fieldAt(json, 'text')).toBe('hi');
  });

  it('never read inherited properties', () => {
    const inherited = Object.create({ text: 'inherited', usage: { n: 1 }, items: [1] }) as object;
    expect(stringAt(inherited, 'text')).toBeUndefined();
    expect(recordAt(inherited, 'usage')).toBeUndefined();
    expect(arrayAt(inherited, 'items')).toEqual([]);
    expect(recordAt({}, '__proto__')).toBeUndefined();
    expect(fieldAt({}, 'constructor')).toBeUndefined();
  });

  it('read a "__proto__" key as the plain field JSON.parse makes of it', () => {
    const json = parseJson('{"__proto__":{"message":"own"}}');
    expect(stringAt(recordAt(json, '__proto__'), 'message')).toBe('own');
    expect(stringAt(json, 'message')).toBeUndefined();
  });

  it('leave an error payload without own fields unread', () => {
    const hostile = Object.create({ error: { message: 'inherited' } }) as object;
    expect(readErrorFields(hostile)).toBeUndefined();
    expect(readErrorFields({ error: { message: 'own', code: 429 } })).toMatchObject({
      message: 'own',
      status: 429,
    });
  });
});
