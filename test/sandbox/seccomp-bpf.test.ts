// The Unix socket filter's BPF program, run through a small classic-BPF interpreter for each
// architecture berth has a table for (this host runs only one of them for real: see the attack tests).
import { describe, expect, it } from 'vitest';
import { SECCOMP_ABIS, unixSocketFilter } from '../../src/sandbox/seccomp-bpf.js';

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;

/** Run `program` on a `seccomp_data` (nr, arch, args[0]); returns the action. */
function run(program: Buffer, nr: number, arch: number, arg0: number): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(nr, 0);
  data.writeUInt32LE(arch, 4);
  data.writeUInt32LE(arg0 >>> 0, 16);
  let a = 0;
  for (let pc = 0; pc < program.length / 8; pc++) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) a = data.readUInt32LE(k);
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x45) pc += (a & k) !== 0 ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unexpected opcode ${code}`);
  }
  throw new Error('fell off the end');
}

describe('unixSocketFilter', () => {
  it('has a table for x64, arm64 and riscv64, and none for others (callers fail closed)', () => {
    expect(Object.keys(SECCOMP_ABIS)).toEqual(['x64', 'arm64', 'riscv64']);
    expect(unixSocketFilter('s390x')).toBeNull();
  });

  it('x86-64: socket(AF_UNIX) EPERM, other families allowed, io_uring EPERM, x32 ENOSYS', () => {
    const p = unixSocketFilter('x64')!;
    const X64 = 0xc000003e;
    expect(run(p, 41, X64, 1)).toBe(EPERM);
    expect(run(p, 41, X64, 2)).toBe(ALLOW);
    expect(run(p, 41, X64, 10)).toBe(ALLOW);
    expect(run(p, 53, X64, 1)).toBe(ALLOW); // socketpair(AF_UNIX)
    expect(run(p, 42, X64, 3)).toBe(ALLOW); // connect on an existing descriptor
    for (const nr of [425, 426, 427]) expect(run(p, nr, X64, 0)).toBe(EPERM);
    expect(run(p, 41 | 0x40000000, X64, 1)).toBe(ENOSYS);
    expect(run(p, 0, X64, 0)).toBe(ALLOW);
  });

  it('i386 on x86-64: socket(AF_UNIX) and socketcall(SYS_SOCKET) EPERM, other calls allowed', () => {
    const p = unixSocketFilter('x64')!;
    const I386 = 0x40000003;
    expect(run(p, 359, I386, 1)).toBe(EPERM);
    expect(run(p, 359, I386, 2)).toBe(ALLOW);
    expect(run(p, 102, I386, 1)).toBe(EPERM);
    expect(run(p, 102, I386, 3)).toBe(ALLOW);
    expect(run(p, 425, I386, 0)).toBe(EPERM);
  });

  it('arm64 (and arm compat) and riscv64 use their own numbers; an unknown ABI gets ENOSYS', () => {
    const arm = unixSocketFilter('arm64')!;
    expect(run(arm, 198, 0xc00000b7, 1)).toBe(EPERM);
    expect(run(arm, 198, 0xc00000b7, 2)).toBe(ALLOW);
    expect(run(arm, 41, 0xc00000b7, 1)).toBe(ALLOW); // 41 is not socket on arm64
    expect(run(arm, 281, 0x40000028, 1)).toBe(EPERM);
    expect(run(arm, 0, 0xc000003e, 0)).toBe(ENOSYS);
    const riscv = unixSocketFilter('riscv64')!;
    expect(run(riscv, 198, 0xc00000f3, 1)).toBe(EPERM);
    expect(run(riscv, 426, 0xc00000f3, 0)).toBe(EPERM);
  });
});
