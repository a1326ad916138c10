// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell scripts, `${x}` is bash's
import { cases } from './define.js';

export const BUILTINS = cases('builtins', {
  'echo options': 'echo -n a; echo -e "b\\tc"; echo -E "d\\te"; echo -neE x; echo; echo -- -n; echo -x',
  'echo escapes with -e': 'echo -e "\\x41\\0101\\u00e9 \\c dropped"; echo after',
  'printf formats': 'printf "%s-%d-%5.2f-%x-%o-%e-%c\\n" str 42 3.14159 255 8 1234.5 char',
  'printf reuses format': 'printf "%s=%s\\n" a 1 b 2 c',
  'printf widths and flags': 'printf "[%-5s][%5s][%05d][%+d][% d][%.3s]\\n" ab cd 42 7 7 abcdef',
  'printf star width': 'printf "[%*s][%-*d]\\n" 6 x 4 9',
  'printf %b and %q': 'printf "%b\\n" "a\\tb\\x41"; printf "%q\\n" "a b" "it\'s" ""',
  'printf -v': 'printf -v out "%03d" 7; echo $out; printf -v arr[2] "%s" x; echo ${arr[2]}',
  'printf invalid number': 'printf "%d\\n" abc 12x; echo status $?',
  'printf character codes': 'printf "%d %d\\n" "\'A" \'"b\'',
  'printf time format': 'printf "%(%Y)T\\n" 0',
  'printf missing arguments': 'printf "%s|%d|%s\\n" only',
  'read basics': { script: 'read a b c; echo "[$a][$b][$c]"', stdin: 'one two three four\n' },
  'read -r and backslashes': { script: 'read x; read -r y; echo "[$x][$y]"', stdin: 'a\\tb\\\nc\na\\tb\n' },
  'read with IFS': { script: 'IFS=: read -r a b; echo "[$a][$b]"', stdin: 'x:y:z\n' },
  'read -a': { script: 'read -ra arr; echo ${#arr[@]} ${arr[1]}', stdin: 'p q r\n' },
  'read -d and -n': { script: 'read -d , a; read -n 3 b; echo "[$a][$b]"', stdin: 'first,secondline\n' },
  'read -N': { script: 'read -N 4 x; echo "[$x]"', stdin: 'ab\ncd\n' },
  'read EOF status': { script: 'read x; echo $? "[$x]"; read y; echo $?', stdin: 'partial' },
  'read REPLY default': { script: 'read; echo "[$REPLY]"', stdin: '  spaced  \n' },
  'read -p to stderr': { script: 'read -p "prompt> " v; echo "$v"', stdin: 'answer\n' },
  'mapfile options': {
    script: 'mapfile -t -s 1 -n 2 arr; printf "[%s]\\n" "${arr[@]}"',
    stdin: 'a\nb\nc\nd\n',
  },
  'readarray with delimiter': 'readarray -d , -t parts <<< "x,y,z"; declare -p parts',
  getopts:
    'f() { local OPTIND o; while getopts "ab:c" o; do echo "$o ${OPTARG-}"; done; shift $((OPTIND-1)); echo rest "$@"; }; f -a -b val -c x y',
  'getopts errors': 'f() { local OPTIND o; while getopts "a:" o; do echo "opt=$o"; done; }; f -z; f -a',
  'getopts silent mode':
    'f() { local OPTIND o; while getopts ":a:" o; do echo "$o ${OPTARG-}"; done; }; f -z -a',
  'cd and pwd': {
    script: 'cd sub; pwd | sed "s|.*/||"; cd ..; cd nosuch; echo status $?',
    files: { 'sub/': '' },
  },
  'cd with CDPATH': {
    script: 'CDPATH=.:parent; cd child >/dev/null; echo ${PWD##*/}',
    files: { 'parent/child/': '' },
  },
  'pushd popd dirs': {
    script:
      'pushd a >/dev/null; pushd ../b >/dev/null; dirs | sed "s|/[^ ]*/||g"; popd >/dev/null; echo ${PWD##*/}',
    files: { 'a/': '', 'b/': '' },
  },
  'test builtin':
    '[ a = a ] && echo eq; [ 1 -lt 2 ] && echo lt; [ -z "" ] && echo empty; test ! -n "" && echo not; [ a \\< b ] && echo less',
  'test file operators': {
    script:
      '[ -f f ] && echo file; [ -d d ] && echo dir; [ -e none ] || echo none; [ -s f ] && echo nonempty; [ -s e ] || echo empty',
    files: { f: 'x', e: '', 'd/': '' },
  },
  'test errors': '[ 1 -eq a ]; echo $?; [ a b c ]; echo $?; [ ; echo $?',
  'test -v and -o': 'x=1; [ -v x ] && echo set; [ -v nope ] || echo unset; set -e; [ -o errexit ] && echo on',
  'test complex expressions':
    '[ a = a -a b = b ] && echo and; [ a = b -o b = b ] && echo or; [ \\( a = a \\) ] && echo paren',
  'type variants': 'type echo; type -t if; type -t cd; f() { :; }; type -t f; type -t nosuch; echo $?',
  'command -v': 'command -v echo; f() { :; }; command -v f; command -v if; command -v nosuch; echo $?',
  'alias and unalias': 'shopt -s expand_aliases; alias x="echo X"; alias x; unalias x; alias x; echo $?',
  hash: 'hash -r; hash nosuch; echo $?',
  'let status': 'let "x = 0"; echo $?; let "x = 1"; echo $?',
  'shift errors': 'set -- a; shift 2; echo $? $#',
  umask: 'umask 027; umask; umask -S',
  'true false colon': 'true; echo $?; false; echo $?; : args ignored; echo $?',
  'help for a builtin': 'help true | sed -n 1p',
  'enable listing': 'enable -n echo; enable -n; enable echo; type echo; enable -n; echo $?',
  caller: 'f() { caller 0 | sed "s/ [^ ]*$//"; }; f',
  'times runs': 'times >/dev/null; echo $?',
  'local outside function': 'local x=1; echo status $?',
  'exit with large status': '(exit 300); echo $?; (exit -1); echo $?',
  'builtin with unknown name': 'builtin nosuch; echo $?',
  'echo to closed stdout': 'echo hi >&-; echo status $?',
  'printf to closed stdout': 'printf hi >&-; echo status $?',
  'declare function listing after unset': 'f() { :; }; unset -f f; declare -f f; echo $?',
  'source missing file': '. ./nofile; echo status $?',
  'eval status': 'eval; echo $?; eval false; echo $?',
  'wait for a builtin in background': 'echo bg & wait $!; echo $?',
  'read from here-doc into multiple': 'read -r a b <<EOF\nleft right extra\nEOF\necho "$a|$b"',
  'kill signal names': 'kill -s USR1 $$ 2>/dev/null; echo unreachable',
  ulimit: 'ulimit -n >/dev/null; echo $?',
  'command -p': 'command -p echo via-p',
  'eval fails with an assignment error and goes on after':
    "f() {\n  local x=local\n  readonly x\n  eval 'x=bar; echo same'\n  echo status=$?\n}\nf",
  'an assignment error abandons the whole function call':
    'readonly x=1\nf() { x=2; echo in-f; }\nf; echo same line\necho next',
  'an expansion error in a sourced file abandons only its command': {
    script: 'f() { . ./src.sh; echo after-src $?; }\nf; echo top',
    files: { 'src.sh': 'echo $((1/0))\necho in-src\n' },
  },
  'read drops NUL bytes and does not count them':
    "printf '.\\000.' | { read s; echo len=${#s}; }; printf 'a\\0bc\\n' | { read -n 3 x; declare -p x; }; printf 'x\\0y\\nrest\\0z\\n' | { read a; read b; echo \"$a|$b\"; }",
  'mapfile keeps a line up to its first NUL byte':
    'printf "a\\0b\\nc\\n" | { mapfile L; declare -p L; }; printf "a\\0b\\nc\\n" | { mapfile -d "" L; declare -p L; }',
  'getopts past the end of changed arguments':
    'set -- -h -c foo x y z; while getopts "hc:" opt; do echo -; done; echo OPTIND=$OPTIND; set --; while getopts "hc:" opt; do echo -; done; echo OPTIND=$OPTIND; OPTIND=7; set -- -a -b; getopts ab o; echo "$? $OPTIND $o"',
  'getopts with an invalid name still takes the option':
    "set -- -c foo -h; getopts 'hc:' opt-; echo status=$? opt=$opt OPTARG=$OPTARG OPTIND=$OPTIND",
  'getopts keeps OPTIND across function calls':
    'f() { while getopts a o; do echo "got $o"; done; echo "OPTIND=$OPTIND"; }; f -a; f -a',
  'command -v fails only when no name is found':
    'myfunc() { :; }; command -v echo myfunc ZZZ for; echo status=$?; command -v ZZZ YYY; echo $?; command -V echo ZZZ; echo $?',
  'wait with an invalid job spec':
    'f() { :; }; f & wait zzz $!; echo $?; wait $! zzz; echo $?; wait %9; echo $?',
  'too many arguments to shift return break continue':
    'f() { return 1 2; echo in; }\nf\necho st=$?\nfor i in a b; do echo $i; break 1 2; done\necho end\nset -- a b\nshift 1 extra\necho st=$?',
  'too many arguments to exit ends bash -c': 'exit 1 2; echo after=$?',
  'printf %q keeps valid UTF-8 beside invalid bytes':
    "u=$'\\u03bc'; printf '%q\\n' \"$u\" \"a${u}b\" $'\\xce' $'\\xce\\xce\\xbc' $'\\xce\\xbc\\xce' \"é x\"; x=\"it's μ\"; echo ${x@Q}",
  'escaped bytes that spell a character are one':
    "x=$'\\xce\\xbc'; echo ${#x}; printf '%b\\n' '\\xce\\xbc' | od -An -tx1; z=$'\\xce'; echo ${#z}",
});
