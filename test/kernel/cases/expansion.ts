// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell scripts, `${x}` is bash's
import { cases } from './define.js';

export const EXPANSION = cases('expansion', {
  'brace lists and sequences': 'echo a{b,c,d}e {1..5} {5..1} {a..e} {1..10..3} {x,y}{1,2}',
  'brace nesting and escapes': 'echo {a,{b,c}x} \\{a,b\\} {a,b\\,c} "{a,b}" {a} {,x}y',
  'brace zero padding and negative steps': 'echo {01..10} {-2..2} {10..1..-3} {a..k..2}',
  'brace with variables is not expanded later': 'x=1; y=3; echo {$x..$y} {a,$x}',
  'tilde expansion': 'HOME=/h; echo ~ ~/x "~" x~ a=~/b; y=~:~; echo $y',
  'tilde in assignment words': 'HOME=/h; PATHX=~/a:~/b; echo $PATHX',
  'default operators': 'unset u; e=; s=set; echo "${u-d1} ${e-d2} ${u:-d3} ${e:-d4} ${s:-d5}"',
  'assign operators': 'unset u; echo ${u=v1} $u; e=; echo ${e:=v2} $e',
  'alternative operators': 'unset u; e=; s=x; echo "[${u+a}] [${e+b}] [${e:+c}] [${s:+d}]"',
  'error operator': 'unset u; echo ${u?is unset}; echo after',
  'error operator default message': 'unset u; (echo ${u:?}); echo status $?',
  length: 's=hello; a=(x yy zzz); echo ${#s} ${#a[@]} ${#a[1]} ${#}',
  'prefix and suffix removal': 'p=/usr/local/lib/x.tar.gz; echo ${p#*/} ${p##*/} ${p%.*} ${p%%.*}',
  'pattern substitution': 's=aXbXc; echo ${s/X/-} ${s//X/-} ${s/#a/S} ${s/%c/E} ${s//[Xb]/} ${s/X}',
  'substitution with anchors and globs': 's=foo.bar.baz; echo ${s/#*./P} ${s/%.*/S} ${s//?a/_}',
  'case modification': 's=hello; u=WORLD; echo ${s^} ${s^^} ${u,} ${u,,} ${s~} ${s^^[lo]}',
  substring: 's=abcdef; echo ${s:2} ${s:1:3} ${s: -2} ${s:(-3):2} ${s:0:-1} ${s:10}',
  'substring of positional parameters': 'set -- a b c d; echo ${@:2} ${@:1:2} ${*:3}',
  'substring of arrays': 'a=(a b c d e); echo ${a[@]:1:2} ${a[@]: -2}',
  'indirect expansion': 'x=y; y=z; echo ${!x}; a=(1 2); n="a[1]"; echo ${!n}',
  'prefix names': 'abc1=1; abc2=2; echo ${!abc*}; for n in "${!abc@}"; do echo $n; done',
  'array keys': 'a=([3]=x [7]=y); echo ${!a[@]}; declare -A m=([k]=v); echo ${!m[@]}',
  transformations: "s=\"a b'c\"; echo ${s@Q}; e=$'\\t'; echo ${e@Q}; n=5; declare -i n; echo ${n@a}",
  'transformation E and A': 'x=$\'a\\\\tb\'; echo "${x@E}"; y=val; echo ${y@A}',
  'transformation U L u': 's="hello world"; echo ${s@U} ${s@u} ${s@L}',
  'quoted at versus star':
    'set -- "a b" c; for x in "$@"; do echo "[$x]"; done; for x in "$*"; do echo "[$x]"; done',
  'star with custom IFS': 'set -- a b c; IFS=-; echo "$*"; IFS=; echo "$*"',
  'unquoted star and at split': 'set -- "a b" "c  d"; for x in $*; do echo "[$x]"; done',
  'word splitting default IFS': 'x="  a  b	c\n d  "; for w in $x; do echo "[$w]"; done',
  'word splitting custom IFS': 'x="a:b::c:"; IFS=:; for w in $x; do echo "[$w]"; done',
  'IFS whitespace and non-whitespace': 'x=" a , b ,, c "; IFS=" ,"; for w in $x; do echo "[$w]"; done',
  'empty IFS no splitting': 'x="a b c"; IFS=; for w in $x; do echo "[$w]"; done',
  'unset IFS default splitting': 'x="a  b"; unset IFS; for w in $x; do echo "[$w]"; done',
  'empty strings vanish unquoted': 'e=; set -- $e "" $e; echo $#',
  'quoted empty stays': 'e=; set -- "$e" "${e}x" "$@"; echo $#',
  'command substitution trailing newlines':
    'x=$(printf "a\\n\\n\\n"); echo "[$x]"; y=$(printf "\\n\\nb"); echo "[$y]"',
  'command substitution status': 'x=$(exit 3); echo $?; x=$(false) || echo failed',
  'command substitution in double quotes keeps spaces': 'echo "$(echo "a   b")" $(echo "a   b")',
  'arithmetic expansion in words': 'i=2; echo x$((i*3))y "$((i+1))"',
  'glob star and question': {
    script: 'echo *.txt; echo ?.txt; echo [ab].txt; echo [!a].txt',
    files: { 'a.txt': '', 'b.txt': '', 'cc.txt': '', 'd.log': '' },
  },
  'glob no match stays': 'echo *.none; echo "[*]"',
  'glob nullglob': {
    script: 'shopt -s nullglob; echo x *.none y; set -- *.none; echo $#',
    files: { 'a.txt': '' },
  },
  'glob failglob': { script: 'shopt -s failglob; echo *.none; echo status $?', files: { 'a.txt': '' } },
  'glob dotfiles': { script: 'echo *; shopt -s dotglob; echo *', files: { '.hidden': '', shown: '' } },
  'glob directories with slash': {
    script: 'echo */; echo d*/f*',
    files: { 'd1/': '', 'd2/f1': '', file: '' },
  },
  globstar: {
    script: 'shopt -s globstar; echo **/*.c; echo a/**',
    files: { 'a/x.c': '', 'a/b/y.c': '', 'z.c': '' },
  },
  'extglob patterns': {
    script: 'shopt -s extglob; echo @(a|b).txt; echo !(a).txt; echo +(x).log; echo ?(c)c.txt',
    files: { 'a.txt': '', 'b.txt': '', 'cc.txt': '', 'xx.log': '' },
  },
  'glob character classes': {
    script: 'echo [[:upper:]]*; echo [[:digit:]]*',
    files: { Abc: '', '1x': '', low: '' },
  },
  'glob sort order': { script: 'echo *', files: { b: '', A: '', a: '', B: '', _x: '', '1': '' } },
  'glob quoted parts literal': {
    script: 'echo "a"*; echo a"*"; x="*"; echo $x; echo "$x"',
    files: { ab: '', 'a*': '' },
  },
  nocaseglob: { script: 'shopt -s nocaseglob; echo A*', files: { abc: '', ABD: '' } },
  GLOBIGNORE: { script: 'GLOBIGNORE="*.log"; echo *', files: { 'a.txt': '', 'b.log': '' } },
  'quote removal': "echo 'single' \"double\" \\e\\s\\c \"a\\\"b\" 'it'\\''s' $'tab\\there'",
  'ANSI-C quoting escapes': 'x=$\'\\x41\\101\\u00e9\\cA\\e\\a\'; printf "%q\\n" "$x"',
  'locale quoting': 'echo $"hello"',
  'process substitution input': 'while read l; do echo "got $l"; done < <(echo a; echo b)',
  'process substitution as file name':
    'cat_() { while read l; do echo "$1: $l"; done < "$1"; }; cat_ <(echo x) | sed "s|/dev/fd/[0-9]*|FD|"',
  'process substitution output': 'echo data > >(while read l; do echo "out:$l"; done); wait',
  'double quoted special characters': 'echo "\\$ \\` \\\\ \\" \\a \\n"',
  'positional parameters beyond nine': 'set -- 1 2 3 4 5 6 7 8 9 10 11; echo $10 ${10} ${11}',
  'special parameters':
    'set -- a b; echo $# $1 "$*"; f() { echo $# "$@"; }; f x y z; echo $0 | sed "s/.*bash/bash/"',
  'dollar question after pipeline': 'false | true; echo $?; true | false; echo $?',
  'unset variable in double quotes': 'unset v; echo "[$v]" "[${v}]"',
  'nested parameter defaults': 'unset a b; echo ${a:-${b:-inner}}',
  'parameter expansion with quotes in pattern': 's="a*b"; echo ${s/"*"/X} ${s/*/Y}',
  'array slices with at in quotes': 'a=("x y" z); printf "[%s]\\n" "${a[@]}" "${a[*]}"',
  'IFS affects star in arrays': 'a=(1 2 3); IFS=,; echo "${a[*]}"; unset IFS; echo "${a[*]}"',
  'brace expansion before parameter': 'a=1; echo {$a,b}',
  'expansion of dollar at with prefix suffix': 'set -- a b; echo "x$@y"; a=(); echo "x${a[@]}y"',
  'null test of lists joined and through indirection': {
    script:
      'a=(""); ref="a[@]"; echo "[${!ref:-x}]"; b=("" ""); echo "[${b[*]:-y}]" "[${b[@]:-z}]" [${b[*]:-u}]; IFS=; echo "[${b[*]:-w}]" "[${b[*]:+v}]"; unset IFS; c=(); r="c[@]"; echo "[${!r:-q}]"; set -- "" ""; echo "[${*:-s}]" "[${@:-t}]"',
  },
  'empty array in quotes': 'a=(); set -- "${a[@]}"; echo $#',
  'output process substitution finishes before the call ends':
    '{ echo 1; echo 2; echo 3; } > >(while read l; do echo "ps $l"; done)',
  'unread input process substitution does not hold the call':
    'echo start; : <(while :; do echo y; done); echo end',
  'indirect reference with a subscript that does not parse':
    'f() { local v=$(echo "${!1}"); echo "[$v]"; }; a=(x y); f \'a[1"]\'; echo st=$?; f \'a[1]\'',
  'line continuation after a dollar and inside a name': 'foo=12; echo $\\\n? $fo\\\no "$\\\nfoo" $\\\n{foo}',
  'single quotes in a double-quoted default are text that hides a brace':
    'echo "${var-\'}\'}" "${var-\\}}" "${var-"}"}"; HOME=/h; echo "${x-\'$HOME\'}" "${x-\'a}b\'}"',
  'nounset and transformations':
    'set -u; (echo ${undef@Q}); echo "stat: $?"; (echo ${undef@a}); echo "stat: $?"; a=(); echo "[${a[@]@Q}]"',
  'nounset names the element as written':
    'set -u; declare -A m; (echo ${m[x]}); a=(1); (echo ${a[$((1+1))]}); i=3; (echo ${a[ i + 1 ]})',
  'GLOBIGNORE matches whole paths and keeps colons inside brackets': {
    script:
      "GLOBIGNORE='*.txt'; echo *.* foo/*.*; GLOBIGNORE='[[:alnum:]]*'; echo *.*; GLOBIGNORE='[![:alnum:]]*:*.md'; echo *.* foo/*",
    files: { 'one.md': '', 'one.txt': '', 'foo/two.md': '', 'foo/two.txt': '', '_t.py': '', '.env': '' },
  },
  'control escapes mask to five bits':
    "printf %s $'\\c0\\c9-\\c-\\c+\\c\"\\c?\\c[\\ca\\cZ' | od -An -tx1; x='\\c0\\c?\\ca'; echo \"${x@E}\" | od -An -tx1",
});
