/**
 * `df` (GNU coreutils 9.1's layout) of the virtual filesystems: each volume the context reports
 * (`CommandContext.volumes`: its byte budget as the size, what is in use, its node budget for
 * `-i`); without volumes, one row for `/` whose use is counted by a walk and whose size is unknown
 * (`-`). `-h -H -k -B -T -i -P --total --output -t -x`, `df FILE` (the volume holding FILE).
 * @module
 */
import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec, VolumeUsage } from '../command.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { type BlockSize, parseBlockSize } from './block-size.js';
import { blocksOf } from './file-mode.js';
import { FILES_HELP } from './gnu-help.js';
import { humanSize } from './human-size.js';

type Field =
  | 'source'
  | 'fstype'
  | 'itotal'
  | 'iused'
  | 'iavail'
  | 'ipcent'
  | 'size'
  | 'used'
  | 'avail'
  | 'pcent'
  | 'file'
  | 'target';

const MIN_WIDTH: Readonly<Record<Field, number>> = {
  source: 14,
  fstype: 4,
  file: 4,
  size: 5,
  used: 5,
  avail: 5,
  pcent: 4,
  itotal: 5,
  iused: 5,
  iavail: 5,
  ipcent: 4,
  target: 0,
};

const LEFT: ReadonlySet<Field> = new Set(['source', 'fstype', 'file', 'target']);

/** What `df` counts when the context reports no volumes: the whole tree, walked once. */
async function walkedVolume(ctx: CommandContext): Promise<VolumeUsage> {
  let bytes = 0;
  let nodes = 0;
  const pending = ['/'];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries: Awaited<ReturnType<typeof ctx.fs.readdir>> = [];
    try {
      entries = await ctx.fs.readdir(dir);
    } catch {
      continue;
    }
    for (const e of entries) {
      const path = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
      try {
        const st = await ctx.fs.lstat(path);
        bytes += blocksOf(st) * 512;
        nodes += 1;
        if (st.type === 'directory' && path !== '/dev' && path !== '/proc') pending.push(path);
      } catch {
        // vanished meanwhile
      }
      const c = ctx.cooperate();
      if (c !== undefined) await c;
    }
  }
  return {
    source: 'virtual',
    mountPoint: '/',
    type: 'virtual',
    sizeBytes: Number.POSITIVE_INFINITY,
    usedBytes: bytes,
    inodes: Number.POSITIVE_INFINITY,
    usedInodes: nodes,
  };
}

async function df(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'df',
    {
      options: [
        { short: 'a', long: 'all' },
        { short: 'B', long: 'block-size', argument: 'required' },
        { short: 'h', long: 'human-readable' },
        { short: 'H', long: 'si' },
        { short: 'i', long: 'inodes' },
        { short: 'k', key: 'k' },
        { short: 'l', long: 'local' },
        { long: 'no-sync' },
        { long: 'output', argument: 'optional' },
        { short: 'P', long: 'portability' },
        { long: 'sync' },
        { long: 'total' },
        { short: 't', long: 'type', argument: 'required' },
        { short: 'T', long: 'print-type' },
        { short: 'x', long: 'exclude-type', argument: 'required' },
        { short: 'v', key: 'v' },
      ],
    },
    { help: FILES_HELP.df },
  );
  if (typeof line === 'number') return line;
  let unit: BlockSize = { kind: 'unit', bytes: 1024, suffix: '' };
  const envUnit = ctx.env.get('DF_BLOCK_SIZE') ?? ctx.env.get('BLOCK_SIZE');
  if (envUnit !== undefined) unit = parseBlockSize(envUnit) ?? unit;
  let inodes = false;
  let posix = false;
  let total = false;
  let showType = false;
  let output: Field[] | undefined;
  const onlyTypes: string[] = [];
  const excludeTypes: string[] = [];
  const valid: readonly Field[] = [
    'source',
    'fstype',
    'itotal',
    'iused',
    'iavail',
    'ipcent',
    'size',
    'used',
    'avail',
    'pcent',
    'file',
    'target',
  ];
  for (const o of line.options) {
    const v = o.value ?? '';
    switch (o.key) {
      case 'block-size': {
        const b = parseBlockSize(v);
        if (b === undefined) {
          await printError(
            ctx,
            `df: invalid ${o.spelled.startsWith('--') ? '--block-size' : '-B'} argument '${v}'\n`,
          );
          return 1;
        }
        unit = b;
        break;
      }
      case 'human-readable':
        unit = { kind: 'human', base: 1024 };
        break;
      case 'si':
        unit = { kind: 'human', base: 1000 };
        break;
      case 'k':
        unit = { kind: 'unit', bytes: 1024, suffix: '' };
        break;
      case 'inodes':
        inodes = true;
        break;
      case 'portability':
        posix = true;
        break;
      case 'total':
        total = true;
        break;
      case 'print-type':
        showType = true;
        break;
      case 'type':
        onlyTypes.push(v);
        break;
      case 'exclude-type':
        excludeTypes.push(v);
        break;
      case 'output': {
        const fields = (o.value ?? valid.join(',')).split(',');
        for (const f of fields) {
          if (!valid.includes(f as Field)) {
            await printError(
              ctx,
              `df: option --output: field ${quoteValue(f)} unknown\nTry 'df --help' for more information.\n`,
            );
            return 1;
          }
        }
        output = [...(output ?? []), ...(fields as Field[])];
        break;
      }
    }
  }
  if (output !== undefined && (inodes || showType || posix)) {
    const which = inodes ? '-i' : showType ? '-T' : '-P';
    await printError(
      ctx,
      `df: options ${which} and --output are mutually exclusive\nTry 'df --help' for more information.\n`,
    );
    return 1;
  }
  const fields: Field[] =
    output ??
    (inodes
      ? [
          'source',
          ...(showType ? (['fstype'] as Field[]) : []),
          'itotal',
          'iused',
          'iavail',
          'ipcent',
          'target',
        ]
      : ['source', ...(showType ? (['fstype'] as Field[]) : []), 'size', 'used', 'avail', 'pcent', 'target']);
  return runCommand(ctx, async () => {
    const volumes = ctx.volumes === undefined ? [await walkedVolume(ctx)] : [...(await ctx.volumes())];
    let status = 0;
    let rows: { v: VolumeUsage; file: string }[] = [];
    if (line.operands.length === 0) {
      rows = volumes.map((v) => ({ v, file: '-' }));
    } else {
      for (const operand of line.operands) {
        try {
          const real = await ctx.fs.realpath(operandPath(ctx, operand));
          const v = volumes
            .filter(
              (x) => real === x.mountPoint || x.mountPoint === '/' || real.startsWith(`${x.mountPoint}/`),
            )
            .sort((a, b) => b.mountPoint.length - a.mountPoint.length)[0];
          if (v !== undefined) rows.push({ v, file: operand });
        } catch (error) {
          if (!isVfsError(error)) throw error;
          await printError(ctx, `df: ${quoteName(operand)}: ${describeVfsCode(error.code)}\n`);
          status = 1;
        }
      }
    }
    rows = rows.filter(
      ({ v }) => (onlyTypes.length === 0 || onlyTypes.includes(v.type)) && !excludeTypes.includes(v.type),
    );
    if (rows.length === 0) {
      if (status === 0) {
        await printError(ctx, 'df: no file systems processed\n');
        status = 1;
      }
      return status;
    }
    const human = unit.kind === 'human';
    const header = (f: Field): string => {
      switch (f) {
        case 'source':
          return 'Filesystem';
        case 'fstype':
          return 'Type';
        case 'file':
          return 'File';
        case 'size':
          if (human) return 'Size';
          return posix ? `${unit.kind === 'unit' ? unit.bytes : 1024}-blocks` : `${blockLabel(unit)}-blocks`;
        case 'used':
          return 'Used';
        case 'avail':
          return human ? 'Avail' : 'Available';
        case 'pcent':
          return posix ? 'Capacity' : 'Use%';
        case 'itotal':
          return 'Inodes';
        case 'iused':
          return 'IUsed';
        case 'iavail':
          return 'IFree';
        case 'ipcent':
          return 'IUse%';
        case 'target':
          return 'Mounted on';
      }
    };
    const amount = (bytes: number): string => {
      if (!Number.isFinite(bytes)) return '-';
      if (unit.kind === 'human') return humanSize(bytes, { base: unit.base });
      return `${Math.ceil(bytes / unit.bytes)}${unit.suffix}`;
    };
    const percent = (used: number, size: number): string => {
      if (!Number.isFinite(size) || size <= 0) return '-';
      return `${Math.ceil((used * 100) / size)}%`;
    };
    const cells = (v: VolumeUsage, file: string): string[] =>
      fields.map((f): string => {
        const nodes = v.inodes ?? Number.POSITIVE_INFINITY;
        const usedNodes = v.usedInodes ?? 0;
        switch (f) {
          case 'source':
            return v.source;
          case 'fstype':
            return v.type;
          case 'file':
            return file;
          case 'size':
            return amount(v.sizeBytes);
          case 'used':
            return amount(v.usedBytes);
          case 'avail':
            return amount(Math.max(0, v.sizeBytes - v.usedBytes));
          case 'pcent':
            return percent(v.usedBytes, v.sizeBytes);
          case 'itotal':
            return Number.isFinite(nodes) ? String(nodes) : '-';
          case 'iused':
            return String(usedNodes);
          case 'iavail':
            return Number.isFinite(nodes) ? String(Math.max(0, nodes - usedNodes)) : '-';
          case 'ipcent':
            return percent(usedNodes, nodes);
          default:
            return v.mountPoint;
        }
      });
    const table = [fields.map(header), ...rows.map(({ v, file }) => cells(v, file))];
    if (total) {
      const sum = (pick: (v: VolumeUsage) => number): number => rows.reduce((n, { v }) => n + pick(v), 0);
      const t: VolumeUsage = {
        source: 'total',
        mountPoint: '-',
        type: '-',
        sizeBytes: sum((v) => v.sizeBytes),
        usedBytes: sum((v) => v.usedBytes),
        inodes: sum((v) => v.inodes ?? Number.POSITIVE_INFINITY),
        usedInodes: sum((v) => v.usedInodes ?? 0),
      };
      table.push(cells(t, '-'));
    }
    const widths = fields.map((f, k) => Math.max(MIN_WIDTH[f], ...table.map((r) => (r[k] as string).length)));
    const out = new TextOutput(ctx.stdout);
    for (const row of table) {
      const text = row
        .map((cell, k) => {
          const f = fields[k] as Field;
          if (k === row.length - 1) return LEFT.has(f) ? cell : cell.padStart(widths[k] as number);
          return LEFT.has(f) ? cell.padEnd(widths[k] as number) : cell.padStart(widths[k] as number);
        })
        .join(' ');
      out.text(`${text}\n`);
    }
    await out.flush();
    return status;
  });
}

function blockLabel(unit: BlockSize): string {
  if (unit.kind === 'human') return 'Size';
  if (unit.suffix !== '') return `1${unit.suffix}`;
  const b = unit.bytes;
  for (const [n, s] of [
    [1024 ** 3, 'G'],
    [1024 ** 2, 'M'],
    [1024, 'K'],
  ] as const) {
    if (b % n === 0) return `${b / n}${s}`;
  }
  return String(b);
}

export const dfCommand: CommandSpec = {
  name: 'df',
  summary: 'report file system space usage',
  help: FILES_HELP.df as string,
  run: df,
};
