// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell scripts, `${x}` is bash's
import { cases } from './define.js';

/** The kernel with the commands on main (grep, sed) inside pipelines and substitutions. */
export const COMMANDS = cases('commands', {
  'grep in a pipeline': 'printf "a\\nb\\nab\\n" | grep a | sed "s/a/A/"',
  'grep status in conditions':
    'if echo hello | grep -q ell; then echo found; fi; echo x | grep -q y || echo absent',
  'sed over a file': {
    script: 'sed -n "2p" f; sed "s/o/0/g" f > g; echo "$(<g)"',
    files: { f: 'one\ntwo\nthree\n' },
  },
  'grep -c in substitution': { script: 'n=$(grep -c x f); echo "count=$n"', files: { f: 'x\ny\nxx\n' } },
  'sed reading stdin of a loop': {
    script: 'while read l; do echo "$l" | sed "s/^/> /"; done',
    stdin: 'a\nb\n',
  },
  'grep reading a heredoc': 'grep -n b <<E\na\nb\nc\nE',
  'sed with here-string': 'sed "s/x/y/" <<< "xxx"',
  // An endless writer, so SIGPIPE is certain (a finite one may finish into the pipe first, in bash too).
  'sed quitting early closes the pipe':
    'f() { i=0; while :; do echo $i; i=$((i+1)); done; }; f | sed 3q; echo ${PIPESTATUS[@]}',
  'grep missing file message': 'grep x nofile; echo status $?',
  'command in process substitution': 'while read l; do echo "[$l]"; done < <(printf "1\\n2\\n" | grep 2)',
  'env prefix on a command': 'X=1 grep -c . <<< "$X"',
  'output of a command into a redirect': 'echo abc | sed s/b/B/ > out; echo "$(<out)"',
  'commands open /dev/zero and /dev/urandom':
    'head -c 5 /dev/zero | od -An -tx1; head -c 8 /dev/urandom | wc -c; cat /dev/zero | head -c 3 | wc -c; echo ${PIPESTATUS[@]}',
});
