// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell scripts, `${x}` is bash's
import { cases } from './define.js';

export const VARS = cases('vars', {
  'indexed arrays':
    'a=(one two three); echo ${a[0]} ${a[2]} ${#a[@]}; a[5]=six; echo ${!a[@]}; a+=(seven); echo ${a[@]}',
  'sparse arrays and negative indices':
    'a=([2]=b [5]=e); echo ${a[-1]} ${a[-4]}; unset "a[2]"; echo ${#a[@]} ${!a[@]}',
  'array element append': 'a=(x); a[0]+=y; a+=([3]=z); declare -p a',
  'associative arrays':
    'declare -A m; m[one]=1; m[two]=2; m+=([three]=3); echo ${m[two]} ${#m[@]}; unset "m[one]"; echo ${#m[@]}',
  'associative declare -p order': 'declare -A m=([a]=1 [b]=2 [c]=3 [zz]=4 [key]=5); declare -p m',
  'associative keys with spaces':
    'declare -A m; k="a b"; m[$k]=v; for key in "${!m[@]}"; do echo "[$key]"; done',
  'declare -p of variables':
    'x=1; declare -i i=2; declare -r r=3; declare -x e=4; declare -a a=(1); declare -p x i r e a',
  'declare -p quoting': "x='a \"b\" $c'; declare -p x; y=$'tab\\there'; declare -p y",
  'array to string and back': 'a=(1 2 3); s="${a[*]}"; b=($s); echo ${#b[@]}',
  'array assignment with globs and splitting': {
    script: 'x="a b"; arr=($x *.t "q r"); echo ${#arr[@]}; printf "[%s]\\n" "${arr[@]}"',
    files: { '1.t': '', '2.t': '' },
  },
  'array copy': 'a=(1 "2 3"); b=("${a[@]}"); echo ${#b[@]} "${b[1]}"',
  'array unset whole': 'a=(1 2); unset a; echo ${#a[@]} "[${a[@]}]"',
  namerefs: 'x=1; declare -n r=x; r=2; echo $x; f() { local -n out=$1; out=set_by_f; }; f y; echo $y',
  'nameref to array element': 'a=(1 2 3); declare -n e="a[1]"; echo $e; e=changed; echo ${a[@]}',
  'nameref loop variable': 'a=1; b=2; for n in a b; do declare -n r=$n; echo $r; done',
  'readonly variables': 'readonly r=1; r=2; echo status $? r=$r; unset r; echo $?',
  'readonly function': 'f() { :; }; readonly -f f; f() { echo new; }; echo status $?',
  'export and env': "export E1=one; bash -c 'echo $E1'; export -n E1; bash -c 'echo \"[$E1]\"'",
  'declare -x in function is local': 'f() { declare -x L=1; bash -c \'echo in $L\'; }; f; echo "out [${L-}]"',
  'declare -g in function': 'f() { declare -g G=global; local l=local; }; f; echo $G ${l-none}',
  'local unset reveals global': 'x=g; f() { local x=l; unset x; echo "[${x-unset}]"; }; f',
  'lowercase and uppercase attributes':
    'declare -l lo=HeLLo; declare -u up=world; echo $lo $up; lo+=ABC; echo $lo',
  'integer array': 'declare -ai a=("1+1" 3*3); echo ${a[@]}',
  'unset variable vs empty':
    'v=; [ -z "${v+x}" ] && echo unset || echo set; unset v; [ -z "${v+x}" ] && echo unset',
  'unset -v and -f': 'x=1; x() { echo fn; }; unset -v x; x; unset -f x; x 2>/dev/null || echo gone',
  'special variables':
    'echo $((RANDOM >= 0)) ${BASHPID:+pid} $((SECONDS >= 0)); [ -n "$BASH_VERSION" ] && echo version',
  'RANDOM seeded': 'RANDOM=42; echo $RANDOM $RANDOM $RANDOM',
  'SRANDOM and EPOCHSECONDS exist': 'echo $(( SRANDOM >= 0 )) $(( EPOCHSECONDS > 1600000000 ))',
  'LINENO and BASH_LINENO': 'f() { echo ${BASH_LINENO[0]}; }\n\nf',
  'PWD and OLDPWD': {
    script: 'cd d; echo ${PWD##*/}; cd - >/dev/null; echo ${OLDPWD##*/}',
    files: { 'd/': '' },
  },
  'IFS default value': 'printf "%q\\n" "$IFS"',
  'set positional parameters': 'set -- a b c; shift; echo $@; shift 2; echo $#; shift; echo status $?',
  'compound assignment with indices': 'a=([1]=one two [5]=five six); declare -p a',
  'declare -A with += on scalar error': 'declare -A m; m=x; declare -p m',
  'array subscript with arithmetic': 'a=(0 1 2 3); i=1; echo ${a[i+1]} ${a[$i*3]}',
  'mapfile-built array': "mapfile -t lines <<< $'a\\nb\\nc'; echo ${#lines[@]} ${lines[2]}",
  'assignment with tilde and expansion': 'HOME=/h; x=~; y="~"; echo $x $y',
  'append to scalar and integer': 's=a; s+=b; declare -i n=1; n+=2; echo $s $n',
  'variable names invalid': '1x=2; echo status $?',
  'declare without value': 'declare v; declare -p v; echo "[${v-unset}]"',
  'typeset synonym': 'typeset -i t=3*3; echo $t',
  'export -p shows export': 'export ONLY_THIS=1; export -p | grep ONLY_THIS',
  'readonly -p': 'readonly RO_ONE=1; readonly -p | grep RO_ONE',
  'declare -F': 'f1() { :; }; f2() { :; }; declare -F',
  'declare -f prints functions': 'f() { if true; then echo "x"; fi; for i in 1; do :; done; }; declare -f f',
  'type of function': 'f() { echo hi; }; type f',
  'unset array element with glob chars': 'declare -A m=([a]=1 ["*"]=2); unset "m[*]"; echo ${#m[@]}',
  'dollar underscore after assignments and declarations':
    ': foo; s=bar; echo "bare [$_]"; declare a=(1 2); echo "da [$_]"; declare -g d=(1 2); echo "df [$_]"; x=1 true; echo "t [$_]"; declare -A m=([k]=v) n; echo "dn [$_]"',
});
