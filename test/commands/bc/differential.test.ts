/** bc against GNU bc 1.07.1: stdout, stderr and status byte for byte. */
import { describe, expect, it } from 'vitest';
import { bcCommand } from '../../../src/commands/bc/bc.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { runGnu, runVirtual } from '../support/gnu-oracle.js';

const PROGRAMS: [string[], string][] = [
  [[], '1+2\n'],
  [[], '1/3\nscale=5; 1/3\n2^100\n-5/2\n5%3\nscale=2; 5%3\n0.5*2\n.5\n-0.5\nsqrt(2)\nscale=10; sqrt(2)\n'],
  [[], 'x = 5\nx\nx++\nx\n++x\nlast\n.\n'],
  [[], 'obase=16; 255\nobase=2; 10\nibase=16; FF\nobase=10; ibase=2; 1010\n'],
  [[], 'obase=100; 12345\nobase=1000; 123456789\n'],
  [[], '2^1000\n'],
  [[], '2^3000\n3^1000\n'],
  [[], 'define f(x) { return x*2 }\nf(21)\n'],
  [[], 'define f(x) {\n  return (x*2)\n}\nf(21)\n'],
  [[], 'define fact(n) {\n  if (n <= 1) return (1)\n  return (n * fact(n-1))\n}\nfact(30)\n'],
  [[], 'a[3]=5; a[3]+1\nb[0]=1; b[1]=2\ndefine s(x[]) { return (x[0]+x[1]) }\ns(b[])\n'],
  [[], 'define v() { auto i; i = 5; return (i) }\nv()\ni\n'],
  [[], 'define n() { }\nn()\n'],
  [[], '4 > 3\n!0\n1 && 0\n2 || 0\n3 == 3\n3 != 3\n2 <= 1\n'],
  [[], 'if (1 > 0) print "yes\\n"\nfor (i=0; i<3; i++) i\ni=0; while (i < 2) { i; i += 1 }\n'],
  [[], 'for (i = 0; i < 10; i++) { if (i == 3) break; i }\n'],
  [[], 'for (i = 0; i < 5; i++) { if (i % 2) continue; i }\n'],
  [[], 'print 1, " ", 2, "\\n"\n'],
  [[], '"hello"\n"world\\n"\n'],
  [[], 'print "a\\tb\\n"\nprint "x\\\\y\\n"\nprint 1/3, "\\n"\n'],
  [
    [],
    'length(123.45)\nscale(123.45)\nscale=3; 1.23456\nscale=2; length(0.001)\nlength(0)\nlength(100)\nscale(1/3)\n',
  ],
  [[], '1\nquit\n2\n'],
  [[], '1\nhalt\n2\n'],
  [[], 'if (0) { 1 } else { 2 }\n'],
  [
    [],
    'scale=3; -1.5 % 1\n7 % -3\n-7 % 3\nscale=0; 10^-2\nscale=4; 3^-2\n(-2)^3\n-2^2\n2^3^2\na=3; a^=2; a\n',
  ],
  [[], 'ibase=16\nA\nibase=10\nABC\nobase=17; 100\n'],
  [[], 'scale=3; 1-1.000\n1.000-1\n0.000\n-0\nscale=2; -0.001\n123.4500\n'],
  [[], 'obase=16; 0.5\nobase=16; 10.25\nobase=2; 0.1\nobase=16; -255.5\n'],
  [[], 'x\ny[5]\n'],
  [[], 'define f(x) { return (x+1); }\nf(1)\n'],
  [[], '/* comment */ 1 + /* more\n */ 2\n# hash comment\n3\n'],
  [[], '1 + \\\n2\n'],
  [['-l'], 'scale=50; 4*a(1)\n'],
  [[], 'a = 1; b = 2; c = a + b; c\n'],
  [[], 'x = 2; x += 3; x -= 1; x *= 4; x /= 2; x %= 5; x\n'],
  [[], 'scale = 20; e = 1; f = 1; for (i = 1; i < 30; i++) { f *= i; e += 1/f }; e\n'],
  [[], '99999999999999999999 * 99999999999999999999\n'],
  [[], '-3 / 2\n-3 % 2\n3 / -2\n'],
  [[], 'scale=5\n1.123456789 * 1\n1.123456789 + 0\n1.5 * 1.5\n1.25 * 1.25\n'],
  [[], 'obase=8; 64\nobase=10; 077\n'],
  [[], '1 +\n2\n'],
  [[], '(1 + 2\n3\n'],
  [['-l'], 's(1)\nc(1)\na(1)\nl(2)\ne(1)\nscale\n'],
  [['-l'], 'e(10)\nl(0)\n'],
  [['-l'], 'scale=30; e(1)\nl(10)\na(0.5)\ns(0.5)\nc(0.5)\n'],
  [['-l'], 's(100)\nc(-3)\na(-2)\ne(-1)\nl(0.5)\n'],
  [['-l'], 'j(0, 1)\nj(1, 2)\nj(2, 5)\n'],
  [['-l'], '4*a(1)\n'],
  [['-q'], '2+2\n'],
  [[], 'obase=16; -255\nobase=8; -1.5\nobase=2; 255.75\nobase=3; 1/3\nscale=5; obase=16; 1/3\n'],
  [[], 'scale=100; 1/7\n'],
  [[], 'scale=20; 22/7 - 355/113\n'],
  [[], 'define f(*a[]) { a[0] = 42 }\nx[0] = 1; f(x[]); x[0]\n'],
  [[], 'define f(a[]) { a[0] = 42 }\nx[0] = 1; f(x[]); x[0]\n'],
  [[], 'define g(n) { auto r; r = 1; while (n > 1) r *= n--; return (r) }\ng(25)\n'],
  [[], 'x = 3; y = x++ + ++x; y; x\n'],
  [[], 'a = 10; a /= 4; a; scale = 2; a = 10; a /= 4; a\n'],
  [[], 'scale=10; (1/3) * 3\nscale=3; 2/3 + 1/3\n'],
  [[], '0.1 + 0.2\n1.10 * 2\n'],
  [[], 'if (1) 2 else 3\n'],
  [[], 'while (i < 3) i += 1; i\n'],
  [[], '5 - - 3\n-(-3)\n'],
  [[], 'obase=10; ibase=16; 1A.8\n'],
  [['-l'], 'scale=10; sqrt(2) - e(l(2)/2)\n'],
  [['-l'], 'scale=40; a(1)*4\ne(0)\nl(1)\ns(0)\nc(0)\n'],
  [['--help'], ''],
  [['--nope'], ''],
  [['-z'], ''],
  [['--mathl'], 's(0)\n'],
  [['nofile.bc'], ''],
];

describe('bc vs GNU bc', () => {
  for (const [args, stdin] of PROGRAMS) {
    it(`${args.join(' ')} ${JSON.stringify(stdin).slice(0, 100)}`, async () => {
      const c = { argv: ['bc', ...args], stdin };
      const [real, mine] = await Promise.all([
        runGnu(c),
        runVirtual(bcCommand.run, c, createMemoryFilesystem()),
      ]);
      expect(mine).toEqual(real);
    });
  }
});
