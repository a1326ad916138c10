// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell scripts, `${x}` is bash's
import { cases } from './define.js';

export const JOBS = cases('jobs', {
  'background job runs': '{ echo bg; } & wait',
  'wait returns job status': '(exit 5) & pid=$!; wait $pid; echo $?',
  'wait -n': '(exit 3) & (exit 3) & wait -n; echo $?; wait',
  'wait for unknown pid': 'wait 99999; echo $?',
  'jobs listing':
    '{ i=0; while ((i < 30000)); do ((i++)); done; } & jobs | sed "s/[0-9][0-9]*/N/"; kill %1 2>/dev/null; wait',
  'kill %1': '{ while :; do read -t 0.05 x; done; } </dev/null & kill %1; wait %1; echo $?',
  'jobs -p':
    '{ i=0; while ((i < 30000)); do ((i++)); done; } & p=$!; [ "$(jobs -p)" = "$p" ] && echo same; kill %1 2>/dev/null; wait',
  'background in subshell waits': '(sleep_() { :; }; sleep_ & wait; echo inner)',
  'dollar bang': 'true & [ -n "$!" ] && echo has-pid; wait',
  'background status is zero': 'false & echo $?; wait',
  disown: '{ :; } & disown %1 2>/dev/null; jobs; echo done',
  'disown after wait': '{ :; } & wait; disown; echo $?',
  'wait with no jobs': 'wait; echo $?',
  'kill invalid job': 'kill %9; echo $?',
  'fork bomb shape is bounded here':
    'f() { [ ${1:-0} -lt 3 ] && { f $(( ${1:-0} + 1 )) | f $(( ${1:-0} + 1 )) & }; }; f; wait; echo done',
});
