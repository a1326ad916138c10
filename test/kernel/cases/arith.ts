// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell scripts, `${x}` is bash's
import { cases } from './define.js';

export const ARITH = cases('arith', {
  'precedence and associativity':
    'echo $((1 + 2 * 3 - 4 / 2)) $((2 ** 3 ** 2)) $(( (1+2) * 3 )) $((10 - 3 - 2))',
  'unary and comparison':
    'echo $((-3)) $((+3)) $((!0)) $((~5)) $((3 > 2)) $((3 <= 2)) $((1 == 1)) $((1 != 1))',
  'logical short circuit': 'x=0; echo $((0 && (x=1))) $x $((1 || (x=2))) $x',
  'ternary and comma': 'echo $((1 ? 2 : 3)) $((0 ? 2 : 3)) $((x=1, y=2, x+y))',
  'assignment operators':
    'x=10; ((x+=5, x-=3, x*=2, x/=4, x%=4)); echo $x; y=1; ((y<<=4, y>>=1, y|=1, y&=7, y^=2)); echo $y',
  increments: 'i=5; echo $((i++)) $i $((++i)) $((i--)) $((--i)) $i',
  bases: 'echo $((0x1F)) $((010)) $((2#1011)) $((36#zz)) $((64#_)) $((64#@)) $((16#ff))',
  '64-bit wrap': 'echo $((9223372036854775807 + 1)) $((-9223372036854775808 - 1)) $((2**63)) $((2**64))',
  'multiplication overflow': 'echo $((3037000500 * 3037000500)) $((-9223372036854775808 * -1))',
  'division truncates toward zero': 'echo $((7 / 2)) $((-7 / 2)) $((7 % -3)) $((-7 % 3))',
  'division by zero': 'echo $((1 / 0)); echo after $?',
  'modulo by zero in command': '((5 % 0)); echo status $?',
  'min int divided by minus one': 'echo $((-9223372036854775808 / -1)) $((-9223372036854775808 % -1))',
  shifts: 'echo $((1 << 62)) $((1 << 63)) $((1 << 64)) $((-8 >> 1)) $((5 >> 70))',
  'negative exponent': 'echo $((2 ** -1)); echo status $?',
  'variables by name recursively': 'a=b; b=c; c=7; echo $((a + 1)); e="1 + 2"; echo $((e * 2))',
  'unset and empty variables are zero': 'unset u; e=; echo $((u + 1)) $((e + 2))',
  'invalid number message': 'echo $((09)); echo next',
  'invalid base': 'echo $((65#1)); echo next',
  'syntax error operand expected': 'echo $((1 +)); echo next',
  'syntax error in command arith keeps going': '((1 +)); echo status $?',
  'let builtin': 'let x=2+3 "y = x * 2"; echo $x $y; let 0; echo $?',
  'array elements in arithmetic':
    'a=(10 20 30); i=1; echo $((a[i] + a[2])) $((a[-1])); ((a[0] += 5)); echo ${a[0]}',
  'associative array in arithmetic': 'declare -A m=([k]=4); echo $((m[k] * 2)); ((m[n] = 3)); echo ${m[n]}',
  'integer attribute': 'declare -i n; n="2 + 3"; echo $n; n+=4; echo $n; n=abc; echo $n',
  'arithmetic for loop with expressions': 'for ((i=1, j=10; i<j; i*=2, j-=1)); do echo $i $j; done',
  'nested arithmetic expansion': 'x=3; echo $(( $((x * 2)) + $(echo 1) ))',
  'string with spaces in arithmetic': 'x=" 12 "; echo $((x + 1))',
  'octal and hex parse errors': 'echo $((0x)); echo $((08 + 1)); echo done',
  'comparison chain': 'echo $((1 < 2 < 3)) $((3 > 2 > 1))',
  'bitwise ops': 'echo $((0xF0 & 0x3C)) $((0xF0 | 0x0F)) $((0xF0 ^ 0xFF)) $((~0))',
  'exponent zero and one': 'echo $((0 ** 0)) $((5 ** 0)) $((1 ** 100)) $((-2 ** 3))',
  'arithmetic in array subscript assignment': 'a[1+1]=x; echo ${!a[@]} ${a[2]}',
  'dollar in arithmetic': 'n=4; echo $(( $n * $n )) $(( ${n} + 1 ))',
  'readonly in arithmetic': 'readonly r=1; (( r = 2 )); echo status $? r=$r',
});
