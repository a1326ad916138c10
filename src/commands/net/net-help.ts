/**
 * `--help` and `--version` of `curl` and `wget`: the options this shell has, in the tools' own
 * layout, and what they go through.
 * @module
 */

export const CURL_HELP = `Usage: curl [options...] <url>
 -A, --user-agent <name>    Send User-Agent <name> to server
 -b, --cookie <data>        Send cookies ("name=value"; no cookie files)
     --compressed           Request a compressed response and decode it
     --connect-timeout <s>  Maximum time allowed for connection
     --create-dirs          Create necessary local directory hierarchy
 -d, --data <data>          HTTP POST data (@file strips newlines)
     --data-binary <data>   HTTP POST binary data
     --data-raw <data>      HTTP POST data, '@' allowed
     --data-urlencode <data> HTTP POST data URL encoded
 -D, --dump-header <file>   Write the received headers to <file>
 -e, --referer <URL>        Referrer URL
 -f, --fail                 Fail fast with no output on HTTP errors
     --fail-with-body       Fail on HTTP errors but save the body
 -G, --get                  Put the post data in the URL and use GET
 -H, --header <header>      Pass custom header(s) to server
 -h, --help                 This help text
 -I, --head                 Show document info only
 -i, --include              Include protocol response headers in the output
     --json <data>          HTTP POST JSON
 -L, --location             Follow redirects
     --max-filesize <bytes> Maximum file size to download
     --max-redirs <num>     Maximum number of redirects allowed
 -m, --max-time <seconds>   Maximum time allowed for transfer
 -o, --output <file>        Write to file instead of stdout
 -O, --remote-name          Write output to a file named as the remote file
 -S, --show-error           Show error even when -s is used
 -s, --silent               Silent mode
 -T, --upload-file <file>   Transfer local FILE to destination
     --url <url>            URL to work with
 -u, --user <user:password> Server user and password
 -v, --verbose              Make the operation more talkative
 -V, --version              Show version number and quit
 -w, --write-out <format>   Use output FORMAT after completion
 -X, --request <method>     Specify request method to use

In berth's virtual shell curl speaks http and https through the host's fetch, only to the URLs
and methods of the context's network allowlist (each redirect is checked too), within its time
and size bounds. TLS certificates are always verified (-k is refused); there is no progress meter.
`;

export const CURL_VERSION = `curl 7.88.1 (berth)
Protocols: http https
Features: IPv6 Largefile libz SSL
berth's in-process curl, compatible with curl 7.88.1's common options; transfers go through the host's fetch and the context's network allowlist.
`;

export const WGET_HELP = `GNU Wget 1.21.3, a non-interactive network retriever.
Usage: wget [OPTION]... [URL]...

Mandatory arguments to long options are mandatory for short options too.

Startup:
  -V,  --version                   display the version of Wget and exit
  -h,  --help                      print this help

Logging and input file:
  -q,  --quiet                     quiet (no output)
  -nv, --no-verbose                turn off verboseness, without being quiet
  -S,  --server-response           print server response

Download:
  -t,  --tries=NUMBER              set number of retries to NUMBER (only 1 try is made)
  -O,  --output-document=FILE      write documents to FILE
  -nc, --no-clobber                skip downloads that would download to
                                     existing files
  -T,  --timeout=SECONDS           set all timeout values to SECONDS
  -U,  --user-agent=AGENT          identify as AGENT instead of Wget/VERSION
       --user=USER                 set both ftp and http user to USER
       --password=PASS             set both ftp and http password to PASS
       --spider                    don't download anything

Directories:
  -P,  --directory-prefix=PREFIX   save files to PREFIX/..

HTTP options:
       --header=STRING             insert STRING among the headers
       --max-redirect              maximum redirections allowed per page
       --post-data=STRING          use the POST method; send STRING as the data
       --post-file=FILE            use the POST method; send contents of FILE
       --method=HTTPMethod         use method "HTTPMethod" in the request
       --body-data=STRING          send STRING as data. --method MUST be set
       --body-file=FILE            send contents of FILE. --method MUST be set
       --content-on-error          output the received content on server errors

In berth's virtual shell wget speaks http and https through the host's fetch, only to the URLs
and methods of the context's network allowlist (each redirect is checked too), within its time
and size bounds. It fetches the URLs given (no recursion) and draws no progress dots.
`;

export const WGET_VERSION = `GNU Wget 1.21.3 built on linux-gnu (berth).

berth's in-process wget, compatible with GNU Wget 1.21.3's common options; transfers go through the host's fetch and the context's network allowlist.
`;
