/**
 * The seccomp program that keeps sandboxed commands off Unix sockets, as classic BPF bytes for
 * bubblewrap's `--seccomp FD`: `socket(AF_UNIX, ...)` fails with `EPERM` (so no path or abstract
 * socket can be connected to or bound), `socketpair` still works (a connected pair reaches nothing
 * outside), and `io_uring` is refused because its `IORING_OP_SOCKET` would create a socket without
 * the `socket` system call. Generated here rather than with libseccomp: a dozen instructions per
 * architecture do not need a native dependency.
 *
 * A 32-bit program on a 64-bit host goes through the compat table (i386's `socketcall`
 * multiplexer hides the address family behind a pointer, so `socketcall(SYS_SOCKET)` is refused
 * whole); x32 system calls and any architecture the table does not know fail with `ENOSYS`.
 * @module
 */

/** `struct seccomp_data` offsets (little-endian hosts: the low word of args[0] comes first). */
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JSET_K = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
const AF_UNIX = 1;
const SYS_SOCKET = 1; // socketcall's call number for socket()
const IO_URING = [425, 426, 427]; // io_uring_setup, io_uring_enter, io_uring_register (every ABI)
const X32_SYSCALL_BIT = 0x40000000;

/** One ABI's numbers. */
interface AbiTable {
  readonly auditArch: number;
  readonly socket: number;
  /** i386: the `socketcall` multiplexer. */
  readonly socketcall?: number;
  /** x86-64: x32 system calls carry this bit. */
  readonly x32Bit?: number;
}

/** Native and compat ABIs per Node `process.arch`. */
export const SECCOMP_ABIS: Readonly<Record<string, readonly AbiTable[]>> = Object.freeze({
  x64: [
    { auditArch: 0xc000003e, socket: 41, x32Bit: X32_SYSCALL_BIT },
    { auditArch: 0x40000003, socket: 359, socketcall: 102 },
  ],
  arm64: [
    { auditArch: 0xc00000b7, socket: 198 },
    { auditArch: 0x40000028, socket: 281 },
  ],
  riscv64: [{ auditArch: 0xc00000f3, socket: 198 }],
});

type Target = string;
type Instruction =
  | { readonly label: string }
  | { readonly code: number; readonly k: number; readonly jt?: Target; readonly jf?: Target };

/**
 * The program for `arch` (Node's `process.arch`), or null when berth has no table for it (the
 * caller then fails closed).
 */
export function unixSocketFilter(arch: string = process.arch): Buffer | null {
  const abis = SECCOMP_ABIS[arch];
  if (abis === undefined) return null;
  const program: Instruction[] = [{ code: LD_W_ABS, k: ARCH }];
  abis.forEach((abi, index) => {
    program.push({ code: JEQ_K, k: abi.auditArch, jt: `abi${index}`, jf: `next${index}` });
    program.push({ label: `abi${index}` }, { code: LD_W_ABS, k: NR });
    if (abi.x32Bit !== undefined)
      program.push({ code: JSET_K, k: abi.x32Bit, jt: 'enosys', jf: `nr${index}` });
    program.push({ label: `nr${index}` });
    program.push(
      { code: JEQ_K, k: abi.socket, jt: 'family', jf: `calls${index}` },
      { label: `calls${index}` },
    );
    if (abi.socketcall !== undefined) {
      program.push({ code: JEQ_K, k: abi.socketcall, jt: 'socketcall', jf: `uring${index}` });
      program.push({ label: `uring${index}` });
    }
    IO_URING.forEach((nr, n) => {
      program.push(
        { code: JEQ_K, k: nr, jt: 'eperm', jf: `uring${index}_${n}` },
        { label: `uring${index}_${n}` },
      );
    });
    program.push({ code: RET_K, k: RET_ALLOW }, { label: `next${index}` });
  });
  program.push(
    // No table for this ABI: refuse everything rather than guess its numbers.
    { code: RET_K, k: RET_ERRNO | ENOSYS },
    { label: 'family' },
    { code: LD_W_ABS, k: ARG0 },
    { code: JEQ_K, k: AF_UNIX, jt: 'eperm', jf: 'allow' },
    { label: 'socketcall' },
    { code: LD_W_ABS, k: ARG0 },
    { code: JEQ_K, k: SYS_SOCKET, jt: 'eperm', jf: 'allow' },
    { label: 'allow' },
    { code: RET_K, k: RET_ALLOW },
    { label: 'eperm' },
    { code: RET_K, k: RET_ERRNO | EPERM },
    { label: 'enosys' },
    { code: RET_K, k: RET_ERRNO | ENOSYS },
  );
  return assemble(program);
}

/** Resolve labels to relative jump offsets and encode `struct sock_filter` entries (8 bytes each). */
function assemble(program: readonly Instruction[]): Buffer {
  const positions = new Map<string, number>();
  const code: Exclude<Instruction, { label: string }>[] = [];
  for (const item of program) {
    if ('label' in item) positions.set(item.label, code.length);
    else code.push(item);
  }
  const buffer = Buffer.alloc(code.length * 8);
  code.forEach((item, index) => {
    const offset = (target: Target | undefined): number => {
      if (target === undefined) return 0;
      const position = positions.get(target);
      const jump = position === undefined ? -1 : position - index - 1;
      if (jump < 0 || jump > 255) throw new Error(`seccomp program: bad jump to ${target} at ${index}`);
      return jump;
    };
    buffer.writeUInt16LE(item.code, index * 8);
    buffer.writeUInt8(offset(item.jt), index * 8 + 2);
    buffer.writeUInt8(offset(item.jf), index * 8 + 3);
    buffer.writeUInt32LE(item.k >>> 0, index * 8 + 4);
  });
  return buffer;
}
