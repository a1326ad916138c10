// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell scripts, `${x}` is bash's
import { cases } from './define.js';

/** Corners of bash found through the Oils spec tests, one case per class of defect fixed. */
export const COMPAT = cases('compat', {
  'let and eval take name=( ... ) as one word':
    'let x=( 1 ); let y=( x + 2 ); let z=( y * 3 ); echo $x $y $z; eval c=(3 4); echo ${c[1]}',
  'a list cannot be assigned to an array member': 'a=(1 2); a[0]=(3 4); echo "status=$?"; echo ${a[@]}',
  'a function name that is not a plain word fails when defined':
    'foo-$(echo hi)() { ls ; }; echo st=$?; $u-bar() { :; }; echo st=$?; f"x"() { :; }; echo st=$?',
  'declare -F with extdebug says where a function was defined':
    'f() { :; }\ng() {\n:\n}\ndeclare -F f g; shopt -s extdebug; declare -F f g',
  'builtins without options refuse one with a usage error':
    "eval -z; echo $?; eval -- 'echo x'; builtin --; echo $?; builtin -- false; echo $?; builtin -z; echo $?; trap -1 EXIT; echo $?; umask 0124; umask -rwx; echo $?; umask -=+; echo $?; umask",
  'pushd and popd arguments as bash reads them':
    'cd /tmp; pushd -z; echo $?; pushd -- /tmp >/dev/null; echo $?; pushd . .; echo $?; popd zzz; echo $?; popd -z; echo $?; popd -- >/dev/null; echo $?; popd; echo $?',
  'history counts and too many arguments':
    'history +5 >/dev/null; echo st=$?; history 3 too-many; echo st=$?',
  'set with a lone plus and the editing modes':
    'set +; echo "$#"; set -x + -v x y; set +xv; echo "$#" "$@"; set - +; echo "$@"; set + -; echo "$@"; set -o vi; set -o | grep -E "^(vi|emacs) "; set -o emacs; set -o | grep -E "^(vi|emacs) "',
  'the host name agrees between HOSTNAME, hostname and the prompt':
    'test "$HOSTNAME" = "$(hostname)"; echo st=$?; PS1=\'\\h\'; test "${PS1@P}" = "$(hostname -s)"; echo st=$?; HOSTNAME=x OSTYPE=y bash -c \'echo $HOSTNAME $OSTYPE\'',
  'prompt job, command and history numbers while a command runs':
    'PS1=\'\\j\'; echo "${PS1@P}"; sleep 5 & echo "${PS1@P}" | cat; kill %1; wait; PS1=\'\\#\'\np=${PS1@P}\nq=${PS1@P}\necho $((q - p))\nset -o history; PS1=\'\\!\'; history -c\necho "${PS1@P}"\necho "${PS1@P}"',
  'a function called with v=x takes that binding as its own scope':
    'unlocal() { unset -v "$1"; }\nf1() { local v=local; unlocal v; echo "v: ${v-(unset)}"; }\nv=global\nv=tempenv f1\nf2() { unset v; echo "v: ${v-(unset)}"; x=mutated; unset x; echo "x: ${x-(unset)}"; }\nx=global; x=t v=tempenv f2',
  'local over a temporary binding starts with its value':
    'f1() { local v; echo "[$1] v: ${v-(unset)}"; }\nf2() { f1 "$1,(func)"; }\nv=global\nf1 global\nv=tempenv f1 tempenv\nv=tempenv f2 tempenv\nv=tempenv eval \'f1 eval\'',
  'local inside v=x eval binds the temporary and unset from a callee reveals what is below':
    'unlocal() { unset -v "$1"; }\nf() {\n  local v=local1\n  v=tempenv2 eval \'\n    local v=local2; echo "in: $v"\n    (unset v; echo "unset: ${v-(unset)}")\n    (unlocal v; echo "unlocal: ${v-(unset)}")\n  \'\n  echo "after: $v"\n}\nv=tempenv1 f',
  'in POSIX mode the bindings left by a special builtin stay':
    'shadow() { x=42; x=tmp unset x; echo x=$x; x=42; x=tmp eval "unset x"; echo x=$x; y=1 :; echo y=$y; }\nshadow; set -o posix; shadow',
  'a file in PATH that is not executable is found but cannot run':
    'mkdir -p d; touch d/nonexec; PATH="d:$PATH"; type -t nonexec; nonexec; echo st=$?; type nonexec; command -v nonexec >/dev/null; echo st=$?',
  'cd through .. of a missing directory fails':
    'cd nonexistent_ZZ/..; echo st=$?; mkdir -p a; cd a/..; echo st=$?',
  '/dev is a directory the shell can enter':
    'cd /dev; echo st=$? $PWD; test -d /dev; echo $?; pushd /tmp >/dev/null; pushd /dev >/dev/null; dirs -v',
  'bash takes shopt options, --help, and SHELLOPTS from its environment':
    'touch a.txt; bash +O nullglob -c "echo foo *.none bar"; bash -O nullglob -c "echo foo *.none bar"; bash -O nosuch -c : 2>/dev/null; echo st=$?; bash --help | head -2; export SHELLOPTS; set -x; bash -c "echo 2" 2>&1; set +x',
  'an interactive bash starts in emacs mode':
    'bash --rcfile /dev/null -i -c "test -o emacs; echo $?; test -o vi; echo $?" 2>/dev/null; bash -c "test -o emacs; echo $?"',
  'a script with a NUL byte in its first line is refused':
    'printf "echo one \\0 echo two\\n" > tmp.sh; bash tmp.sh; echo st=$?',
  'attributes through an indirection':
    'a=(1 2 3); r=a; echo ${!r@a}; r="a[0]"; echo ${!r@a}; declare -A A=([x]=y); echo "x=${!A[@]@a}" "inv=${!A@a}"; s=str; r=s; echo "[${!r@a}]"; f() { [[ ${!1@a} == *a* ]]; }; f a; echo $?; f s; echo $?',
  'nocasematch applies to pattern substitution only':
    'shopt -s nocasematch; foo=a; bar=A; echo "${foo#A}" "${foo#[A]}" "${bar%a}" "${foo/A/x}" "${foo//A/y}" "${foo^^A}" "${bar,,a}"',
  'without extglob !( starts a negated group in [[':
    'e=""; s=x; [[ !($e) ]] && echo T1; [[ !($s) ]] || echo F2; [[ x == !(y) ]] && echo T3; [[ a && !($s) ]] || echo F4',
  'an empty subscript as written is an error':
    'a=(1 2 3)\na[]=42\necho status=$?\necho ${a[@]}\necho ${a[]}\necho status=$?\ni=; a[$i]=5; echo ${a[@]}',
  'a local cannot hide a readonly variable':
    'f() { readonly y; local x=1 y=$(( x )); echo y=$y; }; f; echo y=$y; g() { local y; echo st=$?; }; g',
  'assigning a readonly variable ends a POSIX-mode script': 'set -o posix; readonly x=1; x=2; echo hi',
  'a redirection that brace-expands to two names is ambiguous':
    'echo hi > a-{one,two}; echo st=$?; echo hi > b{x}; echo st=$?; ls',
  'a command name longer than NAME_MAX cannot be run': './$(printf "x%.0s" {1..300}); echo st=$?',
  'the quote after \\c still ends an ANSI-C string': "echo $'a\\c' | od -c; echo $'\\c\\\\' | od -c",
  'a here-document delimiter is not expanded': 'cat <<$(a)\nhere\n$(a)\necho st=$?',
  'wait reports a job a signal ended':
    'sleep 1 & kill -HUP $!; wait $! 2>err.txt; echo st=$?; grep -o "Hangup *sleep 1" err.txt; rm err.txt; sleep 1 & kill -TERM $!; wait $!; echo st=$?',
  'wait -n with nothing left to wait for names the bad id':
    'echo x & wait -n $!; echo st=$?; wait -n $! bad 2>&1 | sed "s/[0-9][0-9]*: no such/PID: no such/"; echo st=$?',
  'no ERR trap for the status of an asynchronous simple command':
    "set -o errtrace; trap 'echo line=$LINENO' ERR\nfalse & wait\n{ false; echo async; } & wait",
  'xtrace of a declaration quotes its compound assignment':
    'a=(1); set -x; a+=(2 "x y"); declare a+=(3); declare -A m=([k]=v ["a b"]="it\'s"); declare -a c=([3]=x) 2>&1',
  'tildes in a default word, in and out of an assignment':
    'HOME=/home/bar; x=~:${undef-~:~}; echo $x; y=${undef-~}; echo $y; echo ${undef-~:~} "${undef-~}"; z=a:${u:-~/d:~}; echo $z',
  'a new bash without PWD starts in the physical directory':
    "mkdir -p t; ln -s t s; cd s; bash -c 'basename $(pwd)'; unset PWD; bash -c 'basename $(pwd)'; PWD=/nowhere bash -c pwd | sed \"s,.*/,,\"",
  'a backquoted command that does not parse fails when it runs':
    '{ echo `echo "`; echo status=$?; x=`fi`; echo st=$?; echo after; } 2>/dev/null',
  'fc -l ignores operands past the second': 'fc -l 0 1 2; echo st=$?; fc -l 1 2 3 4; echo st=$?',
  'an array declared without a value prints with no value':
    'declare -a a1; readonly -a a2; declare -A d1; readonly -A d2; declare x1; declare -p a1 a2 d1 d2 x1; echo "${a1+set}" "${#a1[@]}"; a1+=(); declare -A q; q[k]=v; declare -a s; s[3]=x; declare -a e; e=(); declare -p a1 q s e; f() { local -a la; declare -p la; la+=(1); declare -p la; }; f; x=1; readonly -a x; y=(1); readonly -A y; declare -p x y',
  'a syntax error inside an array literal discards its line and reads on':
    'echo before; a=( inside=() ); echo same\necho st=$? len=${#a[@]}\neval "b=( x=() )"; echo eval=$?\nf() {\n a=( ( ) )\n echo in-f\n}\necho after',
  'a backquote made by a character range is an unclosed command substitution':
    'echo a; echo -{a..Z..2}-; { echo -{Z..a}-; echo same; } 2>/dev/null\necho st=$?\n{ echo -{z..A}-; } 2>/dev/null\necho st=$?',
  'single quotes in an indexed array subscript are an arithmetic error':
    "a[\"1\"]=2; echo st=$?; declare -A A; A['k']=1; i='1'; a[$i]=x; declare -p a A\n{ a['2']=3; echo st=$?; } 2>/dev/null",
  'an element of a nameref to an array element is refused':
    'array=(X Y Z); typeset -n ref="array[1]"; ref=new; echo ${array[@]}\n{ ref[0]=foo; echo same; } 2>/dev/null',
  'a subscript left open at command position ends the input early':
    "bash -c 'a['; echo st=$?; bash -c 'x=1 a[5 +'; echo st=$?; bash -c 'echo a['; echo st=$?; bash -c 'a[1]=2; echo ${a[1]}'",
  'BASH_SOURCE and BASH_LINENO have a main frame in a script file only':
    'printf \'%s\\n\' \'f() { echo "${#BASH_SOURCE[@]} ${#BASH_LINENO[@]} ${#FUNCNAME[@]} [${BASH_LINENO[*]}]"; }\' f \'echo "top ${#BASH_SOURCE[@]} ${#BASH_LINENO[@]}"\' > s.sh; bash s.sh; bash < s.sh; bash -c "$(cat s.sh)"; bash -c "source ./s.sh"; rm s.sh',
  'a directory read by $(< ...), source and read':
    'mkdir d; x=$(< d); echo "$? [$x]"; echo "[$(< d)]"; . d; echo $?; source ./d; echo $?; (PATH=$PWD; . d; echo $?); read x < d; echo $?; . nonexist; echo $?',
  'LINENO of a command whose first words span lines, and inside eval':
    "echo \"a\nb\" $LINENO\neval 'echo A $LINENO' \"\n\"\neval \\\n'echo B $LINENO'\nx=1 \\\neval 'echo C $LINENO'\neval 'echo D $LINENO\necho E $LINENO'\nf() { eval 'echo F $LINENO\necho G $LINENO'; }\nf\neval \"eval 'echo H \\$LINENO\necho I \\$LINENO'\necho J \\$LINENO\"\necho K $LINENO\nif true; then eval '\necho M $LINENO'; fi\nnosuch \"a\nb\"\n>/dev/null \\\n nosuch2 \\\n y\necho end $LINENO",
  'a negated function that turns on set -e itself exits':
    "f() { set -e; false; echo x; }\n(! f; echo not-here); echo st=$?\n(! { f; }; echo not-here); echo st=$?\n(! f | cat; echo piped $?)\n(! (f); echo sub $?)\n(! f && echo and; echo and-st $?)\n(g() { set -e; }; ! g; false; echo not-here); echo st=$?\n(h() { set -e; return 1; }; ! h; echo h $?)\n(set -e; k() { false; echo k; }; ! k; echo k-st $?; ! k | cat; echo k-pipe $?)\n(trap 'echo ERR' ERR; ! { false; echo grouped; }; ! false; echo trap-end)",
  'a character range through the backquote keeps a bare backquote':
    'echo {Z..a}; echo {z..A}; x=({Z..a}); declare -p x; y=(a {Z..a..2} b); declare -p y; for i in x{_..a}; do printf "[%s]" "$i"; done; echo',
  'functions defined in the -c string report their source as environment':
    'f() { nosuch; }; f; k() { echo "src=${BASH_SOURCE[*]}"; }; k; shopt -s extdebug; declare -F f',
  'a character no arithmetic token starts with: operand expected or invalid operator':
    "for e in \"'a' + 1\" \"1 + 'a'\" \"1 'a'\" '@' '1 @' 'x @' '(1) @' 'a[1] @' 'x++ @' '++ @' '1 , @' '1 ; 2'; do (echo $(( $e ))); done 2>&1; ((x = '1')); let \"y = '1'\"; a['2']=3; echo st=$?",
  'single quotes inside arithmetic are matched and kept':
    "x=5; (echo $(( 'x\"' ))); (echo $(( '$x' + 1 ))); (echo $(( ')' ))); (echo $(( '\"1\"' ))); (echo $[ '\\' ]); a=(1 2); (echo ${a['1']}); (echo ${#a[ ')' ]}); declare -A A=([k]=v); echo ${A['k']}; echo end",
  'an unclosed single quote inside arithmetic is a syntax error': 'echo $(( 1 + \'x" ))\necho not-here',
  'an unclosed quote or expansion is reported on the line it opened': {
    script: 'for f in o*.sh; do bash $f; echo "$f $?"; done 2>&1',
    files: {
      'o00.sh': 'echo a\necho ${x\necho y\necho z\n',
      'o01.sh': 'echo a\necho `echo\necho y\necho z\n',
      'o02.sh': "echo a\necho $'x\necho y\necho z\n",
      'o03.sh': 'echo a\necho $((1\necho y\necho z\n',
      'o04.sh': "echo a\necho $(echo 'a\necho y\necho z\n",
      'o05.sh': "echo a\necho 'x\necho y\necho z\n",
      'o06.sh': 'echo a\necho "x\necho y\necho z\n',
      'o07.sh': "echo a\necho $(( 'x\necho y\necho z\n",
      'o08.sh': 'echo a\necho $[1\necho y\necho z\n',
      'o09.sh': 'echo a\necho ${x:-${y\necho y\necho z\n',
      'o10.sh': "echo a\necho ${x:-'a}\necho y\necho z\n",
      'o11.sh': 'echo a\necho $(echo\necho y\necho z\n',
    },
  },
  'a backquoted command that does not parse is reported as a command substitution':
    'echo a\necho `fi`; echo st=$?\necho "`echo \\"`"\nf() { echo `fi`; }\nf; x=$(echo `if`); echo $?',
  'export takes -a and -A as bash does':
    'export -a arr; declare -p arr; export -a b=(1 2); declare -p b; export -A m; declare -p m; export -a; export -A; export -ap; export -A v=1+1; declare -p v; export -n b; export -a; echo ---; readonly -a ra=(1); readonly rs=1; readonly -A rA=([x]=y); readonly -a; readonly -A; export -i x 2>&1; echo st=$?',
  'the first unquoted closing brace ends an expansion word':
    'x=; echo ${x:-{a,b}}; echo ${x:-{a,b}c}; echo ${x:-a{b,c}d}; echo ${x:-{}}; echo ${x:-{{a}}}; y=v; echo ${y:+{a}b}; echo ${y#{}; z="{a}"; echo ${z#{a}}; echo "${x:-{a}b}" ${x:-{a}b}; y=abc; echo ${y/b/{c}d} ${y/{b/x} ${y/b/{/}; IFS=x; X=a=\\"\\$a\\"; echo ${X//a/{x,y,z}}',
  'arithmetic bases: a leading zero, an empty number, a base out of range':
    "for e in '02#0110' '010#11' '0x1#1' '2#' '64#' '1#1' '65#1' '1 + 2#' '2#11' '64#_'; do (echo $(( $e ))); done 2>&1",
  'a moved descriptor stays closed after a builtin unless its target was open':
    'f() { :; }; for c in : f "{ :; }" "x=1" "cat /dev/null"; do exec 7>ff; eval "$c 6>&7-"; echo w >&7; echo "$c $?"; exec 7>&-; done 2>&1; exec 6>/dev/null 7>ff; : 6>&7-; echo world >&7; echo st=$?; exec 3>&1; echo a 1>&3-; echo b >&3; echo a 1>&2-; echo b >&2; echo st=$?; rm ff',
  'unset runs the command substitutions of a subscript given as text':
    "a=(42 43); unset -v 'a[$(echo 0 | tee PWNED)]'; echo len=${#a[@]}; cat PWNED; rm PWNED\ndeclare -A A=([K]=v [x]=y ['a b']=z [\"q'r\"]=w); unset -v 'A[$(echo K)]'; echo ${#A[@]}\nunset 'A[$(echo \"a b\")]'; echo ${#A[@]}\nunset 'A[`echo x`]'; echo ${#A[@]} ${!A[@]}\nunset 'A[$(echo \"q'\\''r\")]'; echo ${#A[@]}\nb=(1 2 3); unset 'b[$(echo \"x y\" | wc -w)]'; declare -p b\nunset 'b[$((1-1))]'; declare -p b\nk=K; declare -A B=([K]=1 ['$(echo K)']=2); unset 'B[$k]'; declare -p B\nunset 'b[$(echo 1; exit 3)]'; echo st=$?; declare -p b\n",
  'compgen -o default and -o dirnames are fallbacks, -o plusdirs adds directories':
    'mkdir -p sp/td; touch sp/tf sp/tg sp/x; compgen -o default sp/t | sort; compgen -o dirnames sp/t; compgen -o plusdirs -W "sp/tz" sp/t; compgen -o default -W "sp/tw" sp/t; compgen -o dirnames -W "sp/tz" sp/t; compgen -o default -X "*" -W "sp/tz" sp/t | sort; compgen -P pre -o default -W "sp/tz" sp/t; compgen -o plusdirs -P p sp/t; compgen -o dirnames nosuch; echo st=$?',
});
