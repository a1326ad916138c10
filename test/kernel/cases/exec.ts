// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell scripts, `${x}` is bash's
import { cases } from './define.js';

export const EXEC = cases('exec', {
  'pipeline stages run concurrently': 'echo a | { read x; echo "got $x"; } | sed s/got/GOT/',
  PIPESTATUS: 'true | false | (exit 3); echo ${PIPESTATUS[@]}; echo ${PIPESTATUS[0]}',
  'PIPESTATUS of a single command': 'false; echo ${PIPESTATUS[@]}',
  'SIGPIPE in PIPESTATUS': 'yes_() { while :; do echo y; done; }; yes_ | sed 2q; echo ${PIPESTATUS[@]}',
  pipefail: 'set -o pipefail; false | true; echo $?; (exit 2) | (exit 3) | true; echo $?',
  'last stage runs in a subshell': 'x=1; echo 2 | read x; echo $x',
  lastpipe: 'shopt -s lastpipe; set +m; echo 2 | read x; echo $x',
  'subshell isolation':
    'x=1; (x=2; echo in $x); echo out $x; (cd /; pwd) >/dev/null; [ "$PWD" != / ] && echo same',
  'subshell exit status': '(exit 7); echo $?; (false); echo $?',
  'command substitution isolation': 'x=1; y=$(x=2; echo $x); echo $x $y',
  'functions see and set globals': 'x=1; f() { x=2; local y=3; }; f; echo $x ${y-unset}',
  'local scoping dynamic': 'x=global; f() { local x=f; g; }; g() { echo $x; }; f; g',
  'redirect stdout and append': 'echo a > f; echo b >> f; echo "$(<f)"',
  'redirect stderr': 'ls_() { echo out; echo err >&2; }; ls_ 2>e >o; echo "[$(<o)] [$(<e)]"',
  'redirect both':
    'f() { echo out; echo err >&2; }; f &> both; echo "$(<both)"; f >& both2; echo "$(<both2)"',
  'append both': 'f() { echo o; echo e >&2; }; f &>> log; f &>> log; echo "$(<log)"',
  'redirect order matters': 'f() { echo o; echo e >&2; }; f 2>&1 >/dev/null; f >/dev/null 2>&1; echo done',
  'duplicate and close fds': 'exec 3>&1; echo to3 >&3; exec 3>&-; echo x >&3; echo status $?',
  'input redirect': {
    script: 'read l < in.txt; echo $l; while read a; do echo "[$a]"; done < in.txt',
    files: { 'in.txt': 'first\nsecond\n' },
  },
  'read write redirect': {
    script: 'exec 4<> rw.txt; read -u 4 l; echo $l; echo appended >&4; exec 4>&-; echo "$(<rw.txt)"',
    files: { 'rw.txt': 'line1\nline2\n' },
  },
  noclobber: 'set -C; echo a > f; echo b > f; echo status $?; echo c >| f; echo "$(<f)"',
  'redirect to missing directory': 'echo x > nodir/f; echo status $?',
  'input from missing file': 'read x < missing; echo status $?',
  'exec persistent redirect': 'exec > out; echo one; echo two; exec >&2; echo shown 2>&1',
  'exec fd move': 'exec 5>f5; echo five >&5; exec 6>&5-; echo six >&6; exec 6>&-; echo "$(<f5)"',
  'fd variable allocation':
    'exec {fd}>f; echo hi >&$fd; [ $fd -ge 10 ] && echo high; exec {fd}>&-; echo "$(<f)"',
  'heredoc to fd': 'cat_() { while read l; do echo "$l"; done <&3; }; cat_ 3<<E\nthree\nE',
  'redirect on compound commands':
    'for i in 1 2; do echo $i; done > loop.txt; { echo a; echo b; } >> loop.txt; echo "$(<loop.txt)"',
  'redirect on while reads all': {
    script: 'n=0; while read l; do n=$((n+1)); done < f; echo $n',
    files: { f: 'a\nb\nc\n' },
  },
  'dev null and dev stdout':
    '{ echo gone > /dev/null; echo shown > /dev/stdout; echo err > /dev/stderr; } >o 2>e; echo "$(<o) $(<e)"',
  'dev fd': '{ echo hi > /dev/fd/1; } > o; exec 3>f; echo three > /dev/fd/3; exec 3>&-; echo "$(<f) $(<o)"',
  'command not found': 'nosuchcommand_zz; echo status $?',
  'command not found in pipeline': 'nosuchcommand_zz | echo after; echo ${PIPESTATUS[@]}',
  'permission denied on non executable': {
    script: './script.sh; echo status $?',
    files: { 'script.sh': 'echo hi\n' },
  },
  'directory as command': { script: './d; echo status $?', files: { 'd/': '' } },
  'script with shebang run by path': {
    script: 'chmod_() { :; }; bash ./s.sh a b; echo status $?',
    files: { 's.sh': 'echo "args: $*"\nexit 4\n' },
  },
  'source a file': {
    script: 'source ./lib.sh; echo $libvar; . ./lib.sh x y',
    files: { 'lib.sh': 'libvar=loaded\necho "sourced $#"\n' },
  },
  'return from sourced file': {
    script: '. ./r.sh; echo after $?',
    files: { 'r.sh': 'echo in\nreturn 5\necho never\n' },
  },
  'exit in subshell only': '(exit 1); echo alive',
  'exit status of last command': 'f() { false; }; f; echo $?; g() { return 42; }; g; echo $?',
  'return outside function': 'return 3; echo after $?',
  eval: 'cmd="echo evaluated"; eval $cmd; eval "x=1; y=\\$x"; echo $y',
  'eval with syntax in quotes': "eval 'for i in 1 2; do echo $i; done'",
  'break and continue with levels':
    'for i in 1 2 3; do for j in a b c; do [ $j = b ] && continue 2; [ $i = 3 ] && break 2; echo $i$j; done; done; echo end',
  'break outside loop': 'break; echo status $?',
  recursion:
    'fact() { if [ $1 -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi; }; fact 10',
  'deep recursion without substitution': 'f() { [ $1 -gt 0 ] && f $(( $1 - 1 )); }; f 500; echo $?',
  'FUNCNAME and BASH_SOURCE in functions':
    'f() { echo ${FUNCNAME[@]}; g; }; g() { echo ${FUNCNAME[0]} ${#FUNCNAME[@]}; }; f',
  'command builtin bypasses functions': 'echo() { builtin echo "wrapped $*"; }; echo a; command echo b',
  'unset function': 'f() { echo f; }; unset -f f; f; echo $?',
  'exec replaces shell': 'exec echo replaced; echo never',
  'exec with no command keeps going': 'exec; echo still',
  'background and wait status': '(exit 3) & wait $!; echo $?',
  'wait for all': '{ echo a; } >a & { echo b; } >b & wait; echo "$(<a)$(<b) done"',
  'stdin inherited by commands': { script: 'read a; read b; echo "$b $a"', stdin: 'one\ntwo\n' },
  'stdin shared across loop and command': { script: 'while read l; do echo "[$l]"; done', stdin: 'x\ny\nz' },
  'here-string to function': 'f() { read l; echo "f:$l"; }; f <<< "hs"',
  'trailing ampersand and semicolon': 'true & false; echo $?',
  'variable assignment before function': 'f() { echo $v; }; v=temp f; echo "[${v-}]"',
  'assignment before special builtin persists': 'v=kept :; echo "[$v]"',
  'assignment before regular builtin does not': 'v=temp true; echo "[${v-unset}]"',
  'env assignment visible to exported lookups': "x=1 bash -c 'echo $x'",
  'nested bash -c': "bash -c 'echo $0 $1 $#' zero one two",
  'bash -c syntax error message': "bash -c 'echo a; fi'; echo status $?",
  'bash script from stdin': { script: 'bash -s a b', stdin: 'echo "from stdin $1 $2"\n' },
  'a PATH prefix is where the command is looked up': {
    script:
      'chmod +x bin/hello bin2/hello\nPATH="$PWD/bin:$PATH" hello; echo status=$?\nPATH="$PWD/dir:$PWD/bin:$PATH" hello; echo status=$?\nPATH="$PWD/notbin:$PWD/bin2:$PATH" hello; echo status=$?\nhello; echo status=$?',
    files: {
      'bin/hello': '#!/bin/sh\necho hi from bin\n',
      'bin2/hello': '#!/bin/sh\necho two\n',
      'notbin/hello': 'echo x\n',
      'dir/hello/': '',
    },
  },
  'descriptor redirect to a file name':
    'echo one 1>&f; echo "st=$?"; cat f; { echo out; echo err >&2; } >&g; cat g; echo x 2>&h; echo st2=$?; echo z 3>&q; echo st3=$?',
  // The interpreter's promise-free paths (plain assignments, plain words, loop bodies).
  'fast path: plain assignments in loops, $? and $_':
    'false; for ((i=0;i<3;i++)); do x=$((x+i)) y="a$i"\'b\' z=; done; echo "$x $y [$z] $? [$_]"; for i in 1 2 3; do s+=$i t+="-$((i*i))"; done; echo $s $t',
  'fast path: an arithmetic error in a plain assignment':
    'for i in 1 2; do x=$((1/0)); echo after; done; echo end $?; for ((i=0; i<2; i++)); do y=$((i/0)); done; echo end2 $?',
  'fast path: set -u in a plain assignment': 'set -u; for i in 1; do x=$nope; echo no; done; echo end',
  'fast path: readonly in a plain assignment':
    'readonly r=1; for i in 1 2; do r=2; echo after $?; done; echo end $?',
  'fast path: plain words split and glob':
    'touch a1 a2; p=\'a*\'; q=\'1  2\'; for i in 1; do printf \'<%s>\' $p "$p" $q "$q" \'\'"$i" $((i+1))"$i"; echo; done; set -f; echo $p; set +f; IFS=:; v=x:y; echo $v',
  'fast path: positional parameters in loops':
    'f() { for ((i=0;i<2;i++)); do s=$s$1$2; done; echo $s ${10}; }; f a b c d e f g h i j; echo $(( $# + 1 ))',
  'fast path: break and continue in promise-free bodies':
    'for ((i=0;i<5;i++)); do x=$i; [ $i = 1 ] && continue; [ $i = 3 ] && break; y=$y$i; done; echo $x $y; while :; do n=$((n+1)); (( n > 2 )) && break; done; echo $n; for a in 1 2; do for b in 1 2; do c=$a$b; continue 2; done; done; echo $c',
  'fast path: set -x and DEBUG traps still see plain assignments':
    "set -x; for ((i=0;i<2;i++)); do x=$((i)); done; set +x; trap 'echo dbg' DEBUG; y=1; trap - DEBUG; echo $x $y",
  'fast path: set -e and command substitution':
    'set -e; x=$(false; echo hi); echo "[$x]"; shopt -s inherit_errexit; y=$(false; echo hi); echo "[$y]"',
});
