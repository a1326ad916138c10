// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell scripts, `${x}` is bash's
import { cases } from './define.js';

export const SYNTAX = cases('syntax', {
  'simple commands and lists': 'echo a; echo b && echo c || echo d; false || echo e',
  'negation and status': '! true; echo $?; ! false; echo $?',
  'line continuation': 'echo a\\\nb c\\\n  d',
  comments: 'echo a # comment\n# whole line\necho b#not',
  'if elif else':
    'for x in 1 2 3; do if [ $x = 1 ]; then echo one; elif [ $x = 2 ]; then echo two; else echo other; fi; done',
  'while and until':
    'i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done; until [ $i -eq 0 ]; do i=$((i-1)); done; echo $i',
  'for with no in': 'set -- a "b c"; for x; do echo "[$x]"; done',
  'c-style for': 'for ((i=0; i<3; i++)); do echo $i; done; for ((;;)); do break; done; echo out',
  'case with patterns':
    'for w in apple b1 zz "a b"; do case $w in a*) echo A;; b[0-9]) echo B;; "a b") echo AB;; *) echo other;; esac; done',
  'case fallthrough operators': 'case x in x) echo 1;& y) echo 2;;& x) echo 3;; *) echo 4;; esac',
  'case with alternatives and parens':
    'case foo in (bar|foo) echo hit;; esac; case "" in "") echo empty;; esac',
  'functions both forms':
    'f() { echo f "$@"; }; function g { echo g; }; function h() { echo h; }; f 1 2; g; h',
  'function with redirect': 'f() { echo in f; } > out.txt; f; cat out.txt 2>/dev/null || echo "$(<out.txt)"',
  'brace group and subshell':
    '{ echo a; echo b; } | while read l; do echo "<$l>"; done; (echo sub; exit 3); echo $?',
  'heredoc basic': 'while read -r l; do echo "[$l]"; done <<EOF\nhello $USER_X\n  world  \nEOF',
  'heredoc quoted delimiter': 'x=1; while read -r l; do echo "$l"; done <<\'E\'\n$x `y` \\n\nE',
  'heredoc tab strip': 'while read -r l; do echo "[$l]"; done <<-E\n\t\tindented\n\tE',
  'heredoc expansions':
    'x=val; while IFS= read -r l; do echo "$l"; done <<E\n$x ${x}s $(echo cmd) $((1+2)) \\$x \\\\\nE',
  'two heredocs on one line': 'while read a && read b <&3; do echo "$a $b"; done <<A 3<<B\n1\n2\nA\nx\ny\nB',
  'heredoc in a function body': 'f() {\n  while read l; do echo "f:$l"; done <<E\nbody\nE\n}\nf; f',
  'nested command substitution': 'echo $(echo a $(echo b $(echo c)))',
  'backticks nested': 'echo `echo a \\`echo b\\``',
  'substitution with case inside': 'echo $(case x in x) echo matched;; esac)',
  'substitution with parens in strings': 'echo "$(echo ")")" $(echo "(")',
  'arith command': '((1 + 2 == 3)) && echo yes; ((0)); echo $?; x=5; ((x++)); echo $x',
  'dbracket basics':
    '[[ abc == a* ]] && echo glob; [[ abc == "a*" ]] || echo literal; [[ -n x && ! -z x ]] && echo ok; [[ a < b ]] && echo lt',
  'dbracket regex': '[[ foo123 =~ ^([a-z]+)([0-9]+)$ ]] && echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"',
  'dbracket grouping': '[[ ( a == a || b == c ) && ! ( x == y ) ]] && echo grouped',
  'syntax error stops at the bad command': 'echo line1\necho line2\nfi\necho never',
  'syntax error unexpected token then': 'if true; then echo a; then',
  'syntax error unexpected eof': 'echo start\nif true; then echo x',
  'syntax error unmatched quote': 'echo ok\necho "unterminated',
  'syntax error in case': 'case x in\n  x) echo a\nesac; echo after',
  'syntax error bad redirect': 'echo a >',
  'syntax error empty pipeline stage': 'echo a | | echo b',
  'syntax error done without do': 'echo first; done',
  'syntax error in eval is local': 'eval "if"; echo status=$?; echo still running',
  'keywords as arguments': 'echo if then fi do done case esac { }',
  'reserved word after semicolon': 'for x in a; do echo $x; done; { echo b; }',
  'time keyword with pipeline': 'TIMEFORMAT=%%; time true; echo $?',
  'coproc-free async list': 'echo a & wait; echo b',
  'semicolon after function body': 'f() { echo x; }; f; f',
  'empty command status': 'false; $empty; echo $?',
  'exclamation as pipeline negation': '! echo a | grep -q b; echo $?',
  'redirect before command': '>out.txt echo hi; echo "$(<out.txt)"',
  'assignment only command': 'x=1 y=2; echo $x$y',
  'here-string': 'read a b <<< "one two"; echo "$b $a"',
  'line numbers in errors': 'echo a\n\nnosuchcmd_x\necho $LINENO',
  'LINENO in functions': 'f() {\n  echo $LINENO\n}\nf',
  'alias expansion off in scripts': 'alias e=echo\ne hi 2>&1 | sed "s/line [0-9]*/line N/"',
  'alias expansion with expand_aliases': 'shopt -s expand_aliases\nalias e="echo aliased"\ne hi',
  'break in a loop condition': 'while break; do echo x; done; echo done',
  'break in the condition of a nested loop':
    'for i in 1 2 3; do echo i=$i; while break; do echo x; done; done; echo done',
  'continue in a loop condition':
    'i=0; while ((i++ < 3)) && { [ $i = 2 ] && continue; true; }; do echo $i; done; echo end',
  'break 2 from an until condition': 'for i in 1 2; do until break 2; do :; done; echo no; done; echo end',
  'redirections of an assignment-only command come after its values':
    'x=$(echo hi >&2) 2>/dev/null; x=1 > /nonexist/f; echo "x=$x $?"; y=$(echo in) >f2; echo "[$y] <$(<f2)>"; z=$(exit 3) > f3; echo $?',
  'break and continue in a subshell of a loop only complain':
    'for i in 1 2; do echo "> $i"; ( if true; then continue; fi; echo "in subshell" ); echo st=$?; done; for i in 1 2; do (exit 3) | { continue; echo no2; }; echo i$i; done',
  'an invalid for or select name is a runtime error':
    'for i.j in a b c; do echo hi; done; echo st=$?; select - in a; do :; done; echo st2=$?; x=1; for $x in a; do echo y; done; echo st3=$?',
});
