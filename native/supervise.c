/*
 * berth-supervise: the owner of one command's process tree (Linux).
 *
 *   berth-supervise HOST_PID STATUS_FD [--keep=FD]... -- /ABSOLUTE/PROGRAM ARGV0 [ARG]...
 *   berth-supervise HOST_PID STATUS_FD --request
 *   berth-supervise HOST_PID --terminal GRACE_MS -- /ABSOLUTE/PROGRAM ARGV0 [ARG]...
 *
 * It becomes a child subreaper (PR_SET_CHILD_SUBREAPER), so every process of the command that loses
 * its parent (a double-forked daemon) is reparented here instead of to init, and asks the kernel to
 * signal it when the host dies (PR_SET_PDEATHSIG). It then forks and executes PROGRAM (with ARGV0
 * as its argv[0]) in a process group of its own, with only fds 0-2 (and each --keep FD) open, and stays until no descendant remains:
 *
 * - STATUS_FD receives one line when PROGRAM ends: "x CODE REST" (exit) or "s SIGNO REST" (signal),
 *   where REST is "." when no other process of the tree remains and "+" when some may; or, from
 *   the child, "e ERRNO" when PROGRAM could not be executed. Nothing else is written there.
 * - It exits once it has no child left, so its own exit means the whole tree is gone.
 * - Signals sent to it (HUP INT QUIT TERM USR1 USR2 WINCH CONT TSTP TTIN TTOU ALRM) go on to
 *   PROGRAM while PROGRAM runs, as kill(pid) would have reached it directly.
 * - When the host dies (or had died before it could start), it SIGKILLs every descendant until
 *   none remains, then exits.
 *
 * With --request it is started ahead of its command (a warm spare): everything above is set up,
 * the command's process is forked and waits, and what it runs arrives on STATUS_FD (a socket: the
 * host writes the request, then shuts its side down) as NUL-terminated strings up to end of file: "CWD\0/ABSOLUTE/PROGRAM\0ARGC\0ARGV0\0...ARG\0NAME=VALUE\0...". It
 * then changes to CWD and executes PROGRAM with exactly that environment, so the command's start
 * costs one wakeup of a process that already exists instead of a fork of the host and two execs.
 * End of file with nothing read retires the spare: it exits with 125 and runs nothing. A request
 * that is malformed or too large is reported as "e EINVAL" or "e E2BIG". In this mode the status
 * pipe first gets "p PID", the pid of the command's process (forked before its request came).
 *
 * With --terminal it is a terminal's session leader (started by the terminal library on the PTY,
 * which is its controlling terminal and fds 0-2) instead of reporting on a status pipe: PROGRAM
 * (the shell) gets a process group of its own that becomes the terminal's foreground group
 * (tcsetpgrp), so job control, ^C and SIGWINCH reach it as they would reach a session leader. When
 * PROGRAM ends, what is left of the session is hung up (HUP, TERM and CONT to every descendant;
 * KILL after GRACE_MS), and the supervisor exits as PROGRAM did (the same code, or the same signal
 * raised on itself), so the terminal library's exit report is PROGRAM's.
 *
 * It holds none of PROGRAM's stdio, so a pipe closes when the command's side closes it.
 * Exit status: PROGRAM's code, 128 + SIGNO when it died of a signal, 125 for a usage or setup error
 * (with a line on stderr), 126/127 when PROGRAM could not be executed.
 *
 * It calls the kernel directly and nothing else: built with BERTH_NOLIBC (x86_64 and aarch64) it
 * links no C library, so starting it costs a fraction of what a libc program's startup does; the
 * same source builds against any libc elsewhere.
 */
#include <asm/ioctls.h>
#include <asm/resource.h>
#include <asm/unistd.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/prctl.h>
#include <linux/signal.h>
#include <linux/wait.h>

typedef unsigned long size_t;
typedef long ssize_t;

/* ---- the kernel interface ------------------------------------------------------------------- */

#if defined(BERTH_NOLIBC) && defined(__x86_64__)
static inline long sys6(long n, long a, long b, long c, long d, long e, long f) {
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  long ret;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}
__asm__(".text\n.global _start\n_start:\n xor %rbp, %rbp\n mov %rsp, %rdi\n and $-16, %rsp\n"
        " call start_c\n hlt\n");
#elif defined(BERTH_NOLIBC) && defined(__aarch64__)
static inline long sys6(long n, long a, long b, long c, long d, long e, long f) {
  register long x8 __asm__("x8") = n;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  register long x3 __asm__("x3") = d;
  register long x4 __asm__("x4") = e;
  register long x5 __asm__("x5") = f;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory", "cc");
  return x0;
}
__asm__(".text\n.global _start\n_start:\n mov x29, #0\n mov x30, #0\n mov x0, sp\n and x1, x0, #-16\n"
        " mov sp, x1\n bl start_c\n brk #0\n");
#elif defined(BERTH_NOLIBC)
#error "BERTH_NOLIBC supports x86_64 and aarch64; build without it elsewhere"
#else
extern long syscall(long number, ...);
extern int *__errno_location(void);
static long sys6(long n, long a, long b, long c, long d, long e, long f) {
  long ret = syscall(n, a, b, c, d, e, f);
  return ret == -1 ? -(long)*__errno_location() : ret;
}
#endif

#define sys0(n) sys6(n, 0, 0, 0, 0, 0, 0)
#define sys1(n, a) sys6(n, (long)(a), 0, 0, 0, 0, 0)
#define sys2(n, a, b) sys6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define sys3(n, a, b, c) sys6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define sys4(n, a, b, c, d) sys6(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define sys5(n, a, b, c, d, e) sys6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

#define E_INTR 4
#define E_CHILD 10
#define E_NOENT 2
#define E_NOEXEC 8
#define E_2BIG 7
#define E_INVAL 22
#define E_NOMEM 12
#define MAX_REQUEST (64L << 20)
#define CLOSE_RANGE_CLOEXEC_FLAG 4U
#define SETUP_FAILED 125
#define SIGSET_BYTES 8
#define MAX_KEEP 16
#define MAX_SCAN 32768

typedef unsigned long sigmask_t;

struct dirent64 {
  unsigned long long ino;
  long long off;
  unsigned short reclen;
  unsigned char type;
  char name[];
};

struct timespec_k {
  long sec;
  long nsec;
};

struct sigaction_k {
  void *handler;
  unsigned long flags;
  void *restorer;
  unsigned long mask;
};

struct rlimit_k {
  unsigned long long current;
  unsigned long long max;
};

#define SIGNAL_DEFAULT ((void *)0)
#define CLOCK_MONOTONIC_ID 1

static size_t length(const char *text) {
  size_t n = 0;
  while (text[n] != '\0') n++;
  return n;
}

static void say(int fd, const char *text) { sys3(__NR_write, fd, text, length(text)); }

static __attribute__((noreturn)) void leave(int code) {
  for (;;) sys1(__NR_exit_group, code);
}

static __attribute__((noreturn)) void usage(const char *why) {
  say(2, "berth-supervise: ");
  say(2, why);
  say(2, "\nusage: berth-supervise HOST_PID STATUS_FD [--keep=FD]... -- /ABSOLUTE/PROGRAM ARGV0 [ARG]...\n");
  say(2, "       berth-supervise HOST_PID STATUS_FD --request\n");
  say(2, "       berth-supervise HOST_PID --terminal GRACE_MS -- /ABSOLUTE/PROGRAM ARGV0 [ARG]...\n");
  leave(SETUP_FAILED);
}

static __attribute__((noreturn)) void fail(const char *what) {
  say(2, "berth-supervise: ");
  say(2, what);
  say(2, " failed\n");
  leave(SETUP_FAILED);
}

/* A decimal number in [0, max], or -1. */
static long number(const char *text, long max) {
  if (*text == '\0') return -1;
  long value = 0;
  for (; *text != '\0'; text++) {
    if (*text < '0' || *text > '9') return -1;
    value = value * 10 + (*text - '0');
    if (value > max) return -1;
  }
  return value;
}

static int starts_with(const char *text, const char *prefix) {
  for (; *prefix != '\0'; text++, prefix++) {
    if (*text != *prefix) return 0;
  }
  return 1;
}

static int status_fd = -1;

/*
 * One status line ("x 0 .\n"); the host may have stopped reading: SIGPIPE is blocked, EPIPE is
 * fine. `rest` is '.' when no other process of the tree remains, '+' when some may, '\0' for none.
 */
static void report(char kind, long value, char rest) {
  if (status_fd < 0) return; // a terminal's supervisor reports through its own exit
  char line[24];
  char digits[20];
  int n = 0, d = 0;
  line[n++] = kind;
  line[n++] = ' ';
  if (value < 0) {
    line[n++] = '-';
    value = -value;
  }
  do digits[d++] = (char)('0' + value % 10);
  while ((value /= 10) > 0 && d < 19);
  while (d > 0) line[n++] = digits[--d];
  if (rest != '\0') {
    line[n++] = ' ';
    line[n++] = rest;
  }
  line[n++] = '\n';
  sys3(__NR_write, status_fd, line, n);
}

static void set_cloexec(int fd, int on) {
  long flags = sys3(__NR_fcntl, fd, F_GETFD, 0);
  if (flags < 0) return;
  sys3(__NR_fcntl, fd, F_SETFD, on ? (flags | FD_CLOEXEC) : (flags & ~FD_CLOEXEC));
}

/* In the child before exec: every fd above 2 closes at exec, except those kept on purpose. */
static void close_inherited_fds(const int *keep, int keep_count) {
  // close_range(CLOEXEC) marks them (Linux 5.11); older kernels get each open one marked by hand.
  if (sys3(__NR_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC_FLAG) != 0) {
    long dir = sys3(__NR_openat, AT_FDCWD, "/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) fail("listing /proc/self/fd to close inherited descriptors");
    char buf[4096];
    long got;
    while ((got = sys3(__NR_getdents64, dir, buf, sizeof buf)) > 0) {
      for (long at = 0; at < got;) {
        struct dirent64 *entry = (struct dirent64 *)(buf + at);
        long fd = number(entry->name, 1L << 30);
        if (fd > 2 && fd != dir) set_cloexec((int)fd, 1);
        at += entry->reclen;
      }
    }
    sys1(__NR_close, dir);
  }
  for (int i = 0; i < keep_count; i++) set_cloexec(keep[i], 0);
}

/* Parent pid of `pid` from /proc/<pid>/stat (comm may hold spaces and parentheses); -1 if gone. */
static long parent_of(long pid) {
  char path[40] = "/proc/";
  char digits[20];
  int n = 6, d = 0;
  do digits[d++] = (char)('0' + pid % 10);
  while ((pid /= 10) > 0);
  while (d > 0) path[n++] = digits[--d];
  const char *tail = "/stat";
  while (*tail != '\0') path[n++] = *tail++;
  path[n] = '\0';
  long fd = sys3(__NR_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[512];
  long got = sys3(__NR_read, fd, buf, sizeof buf - 1);
  sys1(__NR_close, fd);
  if (got <= 0) return -1;
  long close_paren = -1;
  for (long i = 0; i < got; i++) {
    if (buf[i] == ')') close_paren = i;
  }
  // ") S 1234 ..." : state at +2, the parent from +4.
  if (close_paren < 0 || close_paren + 4 >= got) return -1;
  long parent = 0;
  for (long i = close_paren + 4; i < got && buf[i] >= '0' && buf[i] <= '9'; i++) parent = parent * 10 + (buf[i] - '0');
  return parent;
}

/* What a spare's command runs, read from its request descriptor. */
struct request {
  const char *cwd;
  const char *path;
  char **argv;
  char **envp;
};

static char *map_bytes(long bytes) {
  long at = sys6(__NR_mmap, 0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return at < 0 && at > -4096 ? 0 : (char *)at;
}

/*
 * Read the request up to end of file and point into it; 0 on success, 1 when the host sent
 * nothing (the spare is retired), else a negative errno (-E2BIG, -EINVAL, -ENOMEM, a read error).
 */
static long read_request(int fd, struct request *out) {
  long capacity = 64 * 1024, used = 0;
  char *buf = map_bytes(capacity);
  if (buf == 0) return -E_NOMEM;
  for (;;) {
    if (used == capacity) {
      if (capacity >= MAX_REQUEST) return -E_2BIG;
      long grown = sys5(__NR_mremap, buf, capacity, capacity * 2, MREMAP_MAYMOVE, 0);
      if (grown < 0 && grown > -4096) return -E_NOMEM;
      buf = (char *)grown;
      capacity *= 2;
    }
    long got = sys3(__NR_read, fd, buf + used, capacity - used);
    if (got == -E_INTR) continue;
    if (got < 0) return got;
    if (got == 0) break;
    used += got;
  }
  if (used == 0) return 1;
  if (buf[used - 1] != '\0') return -E_INVAL;
  long strings = 0;
  for (long i = 0; i < used; i++) strings += buf[i] == '\0';
  char **slots = (char **)map_bytes((strings + 2) * (long)sizeof(char *));
  if (slots == 0) return -E_NOMEM;
  long count = 0;
  for (long i = 0; i < used; i++) {
    if (i == 0 || buf[i - 1] == '\0') slots[count++] = buf + i;
  }
  // CWD, PROGRAM, ARGC, then ARGC arguments (at least argv[0]), then the environment.
  if (count < 4) return -E_INVAL;
  long argc = number(slots[2], 1L << 24);
  if (argc < 1 || 3 + argc > count || slots[0][0] != '/' || slots[1][0] != '/') return -E_INVAL;
  out->cwd = slots[0];
  out->path = slots[1];
  // The argv array ends where the environment starts: move the environment up one slot to make
  // room for argv's terminating NULL (the slots were sized for two NULLs).
  for (long i = count; i > 3 + argc; i--) slots[i] = slots[i - 1];
  slots[count + 1] = 0;
  slots[3 + argc] = 0;
  out->argv = slots + 3;
  out->envp = slots + 4 + argc;
  return 0;
}

/*
 * Reap every child that has exited; returns 1 once no child at all remains. The command's end is
 * reported after the pass, with whether anything else of the tree is left.
 */
static int reap(long command, int *command_running, int *final_status) {
  int command_ended = 0, none_left = 0;
  for (;;) {
    int status = 0;
    long pid = sys4(__NR_wait4, -1, &status, WNOHANG, 0);
    if (pid == -E_INTR) continue;
    if (pid > 0) {
      if (pid == command && *command_running) {
        *command_running = 0;
        *final_status = status;
        command_ended = 1;
      }
      continue;
    }
    none_left = pid == -E_CHILD;
    break;
  }
  if (command_ended) {
    int status = *final_status;
    char rest = none_left ? '.' : '+';
    if ((status & 0x7f) == 0) report('x', (status >> 8) & 0xff, rest);
    else report('s', status & 0x7f, rest);
  }
  return none_left;
}

static int scan_pids[MAX_SCAN];
static int scan_parents[MAX_SCAN];
static unsigned char scan_mine[MAX_SCAN];

/* Send `sig` to every descendant of `self` found in /proc now; how many there were. */
static int signal_descendants(long self, int sig) {
  int count = 0;
  long dir = sys3(__NR_openat, AT_FDCWD, "/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    char buf[8192];
    long got;
    while (count < MAX_SCAN && (got = sys3(__NR_getdents64, dir, buf, sizeof buf)) > 0) {
      for (long at = 0; at < got && count < MAX_SCAN;) {
        struct dirent64 *entry = (struct dirent64 *)(buf + at);
        at += entry->reclen;
        long pid = number(entry->name, 1L << 30);
        if (pid <= 0) continue;
        long parent = parent_of(pid);
        if (parent < 0) continue;
        scan_pids[count] = (int)pid;
        scan_parents[count] = (int)parent;
        scan_mine[count] = parent == self;
        count++;
      }
    }
    sys1(__NR_close, dir);
  }
  // Descendants: mark the children of marked processes until nothing changes.
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < count; i++) {
      if (scan_mine[i]) continue;
      for (int j = 0; j < count; j++) {
        if (scan_mine[j] && scan_pids[j] == scan_parents[i]) {
          scan_mine[i] = 1;
          changed = 1;
          break;
        }
      }
    }
  }
  int signalled = 0;
  for (int i = 0; i < count; i++) {
    if (scan_mine[i] && sys2(__NR_kill, scan_pids[i], sig) == 0) signalled++;
  }
  return signalled;
}

/* SIGKILL every descendant (orphans of killed ones come back here) until none remains. */
static void kill_everything(long self) {
  struct timespec_k pause = {0, 2 * 1000 * 1000};
  for (;;) {
    int running = 0, unused = 0;
    if (reap(-1, &running, &unused)) return;
    signal_descendants(self, SIGKILL);
    sys2(__NR_nanosleep, &pause, 0);
  }
}

static long now_ms(void) {
  struct timespec_k now = {0, 0};
  sys2(__NR_clock_gettime, CLOCK_MONOTONIC_ID, &now);
  return now.sec * 1000 + now.nsec / 1000000;
}

/* Leave as the command did: its exit code, or its signal raised here (without a core dump). */
static __attribute__((noreturn)) void leave_as(int status) {
  int sig = status & 0x7f;
  if (sig == 0) leave((status >> 8) & 0xff);
  struct rlimit_k no_core = {0, 0};
  sys4(__NR_prlimit64, 0, RLIMIT_CORE, &no_core, 0);
  struct sigaction_k action = {SIGNAL_DEFAULT, 0, 0, 0};
  sys4(__NR_rt_sigaction, sig, &action, 0, SIGSET_BYTES);
  sigmask_t only = 1UL << (sig - 1);
  sys4(__NR_rt_sigprocmask, SIG_UNBLOCK, &only, 0, SIGSET_BYTES);
  sys2(__NR_kill, sys0(__NR_getpid), sig);
  leave(128 + sig);
}

static int run(int argc, char **argv, char **envp) {
  if (argc < 4) usage("too few arguments");
  long host = number(argv[1], 1L << 30);
  if (host <= 0) usage("HOST_PID must be a positive pid");
  int terminal = 0, arg = 3;
  long grace_ms = 0;
  if (argv[2][0] == '-') {
    if (!starts_with(argv[2], "--terminal") || argv[2][10] != '\0') usage("unknown option");
    terminal = 1;
    grace_ms = number(argv[3], 1L << 30);
    if (grace_ms < 0) usage("GRACE_MS must be a number of milliseconds");
    arg = 4;
  } else {
    long status = number(argv[2], 1L << 20);
    if (status < 3) usage("STATUS_FD must be a descriptor above 2");
    status_fd = (int)status;
  }
  int keep[MAX_KEEP], keep_count = 0;
  for (; arg < argc && starts_with(argv[arg], "--keep="); arg++) {
    if (keep_count == MAX_KEEP) usage("too many --keep descriptors");
    long fd = number(argv[arg] + 7, 1L << 20);
    if (fd < 3 || fd == status_fd) usage("--keep=FD must name a descriptor above 2, not STATUS_FD");
    if (terminal) usage("--keep is not for a terminal");
    keep[keep_count++] = (int)fd;
  }
  int request_fd = -1;
  const char *path = 0;
  char **program = 0;
  if (!terminal && keep_count == 0 && arg == argc - 1 && starts_with(argv[arg], "--request") &&
      argv[arg][9] == '\0') {
    request_fd = status_fd;
  } else {
    if (arg >= argc || argv[arg][0] != '-' || argv[arg][1] != '-' || argv[arg][2] != '\0') usage("expected --");
    if (argc - arg < 3) usage("expected PROGRAM and ARGV0 after --");
    path = argv[arg + 1];
    program = argv + arg + 2;
    if (path[0] != '/') usage("PROGRAM must be an absolute path");
  }
  if (terminal) {
    // The terminal library made this process a session leader with the PTY as its controlling
    // terminal on fds 0-2; anything else has no terminal to hand to the shell.
    int foreground = 0;
    if (sys1(__NR_getsid, 0) != sys0(__NR_getpid) || sys3(__NR_ioctl, 0, TIOCGPGRP, &foreground) != 0)
      usage("--terminal needs to lead a session whose controlling terminal is fd 0");
  } else {
    long flags = sys3(__NR_fcntl, status_fd, F_GETFD, 0);
    if (flags < 0) fail("STATUS_FD is not open: reading its flags");
    sys3(__NR_fcntl, status_fd, F_SETFD, flags | FD_CLOEXEC);
  }

  // Everything the loop waits for is blocked and taken with rt_sigtimedwait; the child unblocks it.
  // SIGPIPE is blocked too (never taken): a write to a closed status pipe then just fails.
  // A real-time signal no C library reserves for itself (glibc takes 32-33, musl 32-34).
  const int host_gone = 40;
  static const int forwarded[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2,
                                  SIGWINCH, SIGCONT, SIGTSTP, SIGTTIN, SIGTTOU, SIGALRM};
  sigmask_t waited = (1UL << (SIGCHLD - 1)) | (1UL << (host_gone - 1));
  for (unsigned i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) waited |= 1UL << (forwarded[i] - 1);
  sigmask_t blocked = waited | (1UL << (SIGPIPE - 1));
  sigmask_t original = 0;
  sys4(__NR_rt_sigprocmask, SIG_BLOCK, &blocked, &original, SIGSET_BYTES);

  if (sys5(__NR_prctl, PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) fail("prctl(PR_SET_CHILD_SUBREAPER)");
  if (sys5(__NR_prctl, PR_SET_PDEATHSIG, host_gone, 0, 0, 0) != 0) fail("prctl(PR_SET_PDEATHSIG)");
  // The host may have died before the death signal was armed: then nothing may start.
  if (sys0(__NR_getppid) != host) leave(SETUP_FAILED);

  long owner = sys0(__NR_getpid);
  long command = sys5(__NR_clone, SIGCHLD, 0, 0, 0, 0);
  if (command < 0) fail("fork");
  if (command == 0) {
    // Its own group: a `kill 0` in the command does not reach its owner.
    sys2(__NR_setpgid, 0, 0);
    if (terminal) {
      // The terminal's foreground group from now on (SIGTTOU, which a background group's
      // tcsetpgrp raises, is still blocked here).
      int group = (int)sys0(__NR_getpid);
      if (sys3(__NR_ioctl, 0, TIOCSPGRP, &group) != 0) fail("tcsetpgrp");
    }
    // Should the owner itself be killed (SIGKILL cannot be forwarded), the command goes with it.
    sys5(__NR_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (sys0(__NR_getppid) != owner) leave(SETUP_FAILED);
    if (request_fd >= 0) {
      // A spare: wait for what to run (signals stay blocked meanwhile).
      struct request request;
      long got = read_request(request_fd, &request);
      if (got == 1) leave(SETUP_FAILED);
      if (got == 0) got = sys1(__NR_chdir, request.cwd);
      if (got < 0) {
        report('e', -got, '\0');
        leave(got == -E_NOENT ? 127 : 126);
      }
      path = request.path;
      program = request.argv;
      envp = request.envp;
    }
    sys4(__NR_rt_sigprocmask, SIG_SETMASK, &original, 0, SIGSET_BYTES);
    close_inherited_fds(keep, keep_count);
    long error = sys3(__NR_execve, path, program, envp);
    if (error == -E_NOEXEC) {
      // A script without a #! line runs under /bin/sh, as execvp(3) does.
      int count = 0;
      while (program[count] != 0) count++;
      char *shell[count + 2];
      shell[0] = "/bin/sh";
      shell[1] = (char *)path;
      for (int i = 1; i <= count; i++) shell[i + 1] = program[i];
      sys3(__NR_execve, shell[0], shell, envp);
    }
    report('e', -error, '\0');
    if (terminal) {
      say(2, "berth-supervise: cannot execute ");
      say(2, path);
      say(2, "\n");
    }
    leave(error == -E_NOENT ? 127 : 126);
  }

  if (request_fd >= 0) {
    // A spare names its command's process, so the host can tell the command's end from /proc
    // (its zombie) before this process has been scheduled to reap it.
    report('p', command, '\0');
  }
  // Let go of the command's stdio: its pipes must close when the command's side closes them.
  long null_fd = sys3(__NR_openat, AT_FDCWD, "/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd >= 0) {
    for (int fd = 0; fd <= 2; fd++) {
      if (null_fd != fd) sys3(__NR_dup3, null_fd, fd, 0);
    }
    if (null_fd > 2) sys1(__NR_close, null_fd);
  }

  long self = owner;
  int command_running = 1, final_status = 0;
  // A terminal's session ends with its shell: the rest is hung up, and killed at this deadline.
  long hangup_deadline = -1;
  char info[128];
  for (;;) {
    if (reap(command, &command_running, &final_status)) break;
    if (sys0(__NR_getppid) != host) {
      kill_everything(self);
      break;
    }
    struct timespec_k tick = {1, 0};
    if (terminal && !command_running) {
      if (hangup_deadline < 0) {
        signal_descendants(self, SIGHUP);
        signal_descendants(self, SIGTERM);
        signal_descendants(self, SIGCONT);
        hangup_deadline = now_ms() + grace_ms;
      }
      long left = hangup_deadline - now_ms();
      if (left <= 0) {
        kill_everything(self);
        break;
      }
      if (left < 1000) tick = (struct timespec_k){0, left * 1000000};
    }
    long sig = sys4(__NR_rt_sigtimedwait, &waited, info, &tick, SIGSET_BYTES);
    if (sig <= 0 || sig == SIGCHLD || sig == host_gone) continue;
    if (command_running) sys2(__NR_kill, command, sig);
  }
  if (terminal) leave_as(final_status);
  if ((final_status & 0x7f) != 0) return 128 + (final_status & 0x7f);
  return (final_status >> 8) & 0xff;
}

#ifdef BERTH_NOLIBC
/* The compiler may emit calls to these even in freestanding code. */
void *memset(void *to, int value, size_t n) {
  unsigned char *p = to;
  while (n-- > 0) *p++ = (unsigned char)value;
  return to;
}
void *memcpy(void *to, const void *from, size_t n) {
  unsigned char *p = to;
  const unsigned char *q = from;
  while (n-- > 0) *p++ = *q++;
  return to;
}

__attribute__((used, noreturn)) void start_c(long *stack) {
  int argc = (int)stack[0];
  char **argv = (char **)(stack + 1);
  leave(run(argc, argv, argv + argc + 1));
}
#else
int main(int argc, char **argv, char **envp) { return run(argc, argv, envp); }
#endif
