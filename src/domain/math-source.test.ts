import { describe, expect, it } from 'vitest';
import { hasMath, normalizeMath } from './math-source.ts';

describe('normalizeMath', () => {
  it.each([
    ['inline dollars', 'Euler: $e^{i\\pi}+1=0$.', 'Euler: $e^{i\\pi}+1=0$.'],
    ['display dollars', '$$\n\\int_0^1 x\\,dx\n$$', '$$\n\\int_0^1 x\\,dx\n$$'],
    ['\\( \\) becomes inline', 'So \\(a^2+b^2=c^2\\) holds.', 'So $a^2+b^2=c^2$ holds.'],
    ['\\[ \\] becomes display', '\\[\nx = \\frac{1}{2}\n\\]', '$$\nx = \\frac{1}{2}\n$$'],
    ['prices stay prices', 'It costs $5 and $10.', 'It costs \\$5 and \\$10.'],
    ['a closing dollar before a digit is no formula', 'Pay $x$5 now', 'Pay \\$x\\$5 now'],
    ['code is left alone', 'Run `echo $HOME $PATH` and ```$x$```', 'Run `echo $HOME $PATH` and ```$x$```'],
    ['escaped dollars stay escaped', 'A \\$ sign and $y$', 'A \\$ sign and $y$'],
  ])('%s', (_name, source, expected) => {
    expect(normalizeMath(source)).toBe(expected);
  });

  it('shows a formula still streaming as text until it closes', () => {
    expect(normalizeMath('Let $x^2 + ')).toBe('Let \\$x^2 + ');
    expect(normalizeMath('$$\n\\sum_i')).toBe('\\$\\$\n\\sum_i');
    expect(normalizeMath('Then \\(a + ')).toBe('Then \\\\(a + ');
    expect(normalizeMath('\\[\nx')).toBe('\\\\[\nx');
    expect(hasMath(normalizeMath('Let $x^2 + '))).toBe(false);
    expect(hasMath(normalizeMath('Let $x^2$'))).toBe(true);
  });

  it('reads a run of backticks that no run as long closes as text, as the renderer does', () => {
    expect(hasMath(normalizeMath('```$x$`'))).toBe(true);
    expect(hasMath(normalizeMath('`` a`$x$ ``'))).toBe(false);
  });

  it('finds no math in prices, code or plain text', () => {
    for (const text of ['It costs $5 and $10.', '`$a$`', 'No math here.', 'A \\$ sign'])
      expect(hasMath(normalizeMath(text))).toBe(false);
  });
});

describe('normalizeMath on hostile input', () => {
  it('escapes every one of 50,000 openers that never close (found in one pass, not one per opener)', () => {
    const text = '\\('.repeat(50_000);
    expect(normalizeMath(text)).toBe('\\\\('.repeat(50_000));
    expect(hasMath(normalizeMath(`${'$x '.repeat(20_000)}`))).toBe(false);
  });

  it('reads 100,000 backticks', () => {
    // A backreference regex for code spans took 4.5 s on them: the time is measured by
    // `npm run bench` (case 9), and every regex here by regex-linearity.test.ts.
    const text = `${'`'.repeat(100_000)} $x$`;
    expect(hasMath(normalizeMath(text))).toBe(true);
  });
});
