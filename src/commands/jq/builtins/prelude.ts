/**
 * Built-ins defined in the jq language itself, on top of the native ones: the selectors
 * (`values`, `arrays`, ...), `map_values`, `walk`, `combinations`, `transpose`, the date aliases,
 * `INDEX`/`JOIN`/`IN`, `pick`, `debug/1`, `truncate_stream`. Compiled once per process.
 * @module
 */

export const PRELUDE = `
def values: select(. != null);
def nulls: select(. == null);
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def strings: select(type == "string");
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: select(type | . == "array" or . == "object");
def scalars: select(type | . != "array" and . != "object");
def scalars_or_empty: select(type | . != "array" and . != "object" or length == 0);
def isfinite: type == "number" and (isinfinite | not);
def finites: select(isinfinite or isnan | not);
def normals: select(isnormal);
def map_values(f): .[] |= f;
def recurse_down: recurse;
def leaf_paths: paths(scalars);
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def combinations:
  if length == 0 then []
  else .[0][] as $x | (.[1:] | combinations) as $y | [$x] + $y
  end;
def combinations(n): . as $dot | [range(n) | $dot] | combinations;
def walk(f):
  def w: if type == "object" then map_values(w) elif type == "array" then map(w) else . end | f;
  w;
def transpose: [range(0; map(length) | max // 0) as $i | [.[][$i]]];
def first: .[0];
def last: .[-1];
def nth($n): .[$n];
def env: $ENV;
def halt_error: halt_error(5);
def todateiso8601: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ") | mktime;
def todate: todateiso8601;
def fromdate: fromdateiso8601;
def date: todate;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;
def truncate_stream(stream):
  . as $n | null | stream | . as $input
  | if (.[0] | length) > $n then setpath([0]; $input[0][$n:]) else empty end;
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def JOIN($idx; idx_expr): [.[] | [., $idx[idx_expr]]];
def JOIN($idx; stream; idx_expr): stream | [., $idx[idx_expr]];
def JOIN($idx; stream; idx_expr; join_expr): stream | [., $idx[idx_expr]] | join_expr;
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
def debug(msg): (msg | debug | empty), .;
`;
