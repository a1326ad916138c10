/**
 * The full declared API of each package subpath, as text: every export's declaration (parameter
 * and return types, fields, members, type parameters, heritage), and after them every declaration
 * those reach that no subpath exports (an option type or a result type a signature names), so a
 * change to either shows up as a diff of the committed snapshot.
 *
 * The declarations are read from the built `.d.ts` files through the TypeScript compiler's own API
 * (`typescript/unstable/sync`: the native compiler, asked over a pipe): the checker resolves every
 * export through its re-exports to the declaration, and the printer writes that declaration
 * without comments, so only a change of the API (not of its TSDoc) changes the snapshot.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type Node, SyntaxKind } from 'typescript/unstable/ast';
import { API, type Project, SymbolFlags, type Symbol as TsSymbol } from 'typescript/unstable/sync';

/** One subpath to describe: its specifier (`berth/docker`) and its entry declaration file. */
export interface EntryPoint {
  readonly specifier: string;
  readonly typesFile: string;
  /** Its runtime export names with their kind (`function`, `class`, `number`, ...). */
  readonly runtimeKinds: Readonly<Record<string, string>>;
}

/**
 * The snapshot text of every entry point, keyed by specifier. `root` is the package folder:
 * declarations under it (outside `node_modules`) are the package's own, those of dependencies
 * and of Node are named but not expanded.
 */
export function declaredApi(root: string, entries: readonly EntryPoint[]): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-api-'));
  const config = join(dir, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
        // The config lives outside the package, so its type roots must be named.
        typeRoots: [join(root, 'node_modules/@types')],
      },
      files: entries.map((e) => e.typesFile),
    }),
  );
  const api = new API({ cwd: root });
  try {
    const project = api.updateSnapshot({ openProjects: [config] }).getProject(config);
    if (project === undefined) throw new Error(`the compiler did not open ${config}`);
    return new Describer(project, root).describeAll(entries);
  } finally {
    api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Export {
  readonly name: string;
  readonly target: TsSymbol;
}

class Describer {
  private readonly own: string;
  private readonly texts = new Map<number, string>();
  private readonly references = new Map<number, TsSymbol[]>();

  constructor(
    private readonly project: Project,
    private readonly root: string,
  ) {
    this.own = join(root, '/');
  }

  describeAll(entries: readonly EntryPoint[]): Record<string, string> {
    const exportsOf = new Map(entries.map((e) => [e.specifier, this.exportsOf(e.typesFile)]));
    const published = new Set<number>();
    for (const list of exportsOf.values()) for (const e of list) published.add(e.target.id);
    const out: Record<string, string> = {};
    for (const entry of entries) {
      const list = exportsOf.get(entry.specifier) ?? [];
      const lines = [
        `// ${entry.specifier}: the declared API, written by \`npm run api:snapshot\`; do not edit.`,
      ];
      for (const e of list) {
        const kind = entry.runtimeKinds[e.name] ?? 'type';
        const renamed = e.target.name === e.name ? '' : `, declared as ${e.target.name}`;
        lines.push('', `// ${e.name}: ${kind}${renamed}`, this.textOf(e.target));
      }
      const unexported = this.reachableUnexported(
        list.map((e) => e.target),
        published,
      );
      if (unexported.length > 0) {
        lines.push('', '// Reached from the exports above, exported by no subpath:');
        for (const s of unexported) lines.push('', `// ${s.name} (${this.fileOf(s)})`, this.textOf(s));
      }
      out[entry.specifier] = `${lines.join('\n')}\n`;
    }
    return out;
  }

  private exportsOf(typesFile: string): Export[] {
    const { checker, program } = this.project;
    const file = program.getSourceFile(typesFile);
    const module = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (module === undefined) throw new Error(`${typesFile} is not a module of the program`);
    return checker
      .getExportsOfModule(module)
      .map((s) => ({ name: s.name, target: this.resolved(s) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  private resolved(symbol: TsSymbol): TsSymbol {
    return symbol.flags & SymbolFlags.Alias ? this.project.checker.getAliasedSymbol(symbol) : symbol;
  }

  private declarationsOf(symbol: TsSymbol): Node[] {
    return symbol.declarations.flatMap((d) => {
      const node = d.resolve(this.project);
      return node === undefined ? [] : [node];
    });
  }

  private fileOf(symbol: TsSymbol): string {
    const declaration = symbol.declarations[0];
    return declaration === undefined ? '?' : relative(this.root, declaration.path);
  }

  /** The printed declarations of a symbol (several for overloads and merged declarations). */
  private textOf(symbol: TsSymbol): string {
    const known = this.texts.get(symbol.id);
    if (known !== undefined) return known;
    const parts = this.declarationsOf(symbol).map((node) => {
      // A `const` prints with its statement, so its `declare const` and type stay in view.
      const printed = node.kind === SyntaxKind.VariableDeclaration ? (node.parent?.parent ?? node) : node;
      if (printed.kind === SyntaxKind.SourceFile)
        throw new Error(`${symbol.name}: a namespace re-export; describe its members instead`);
      return withoutPrivateMembers(this.project.emitter.printNode(printed));
    });
    const text = [...new Set(parts)].join('\n');
    this.texts.set(symbol.id, text);
    return text;
  }

  /** Declarations of this package that the given ones name in a type position, transitively. */
  private reachableUnexported(from: readonly TsSymbol[], published: ReadonlySet<number>): TsSymbol[] {
    const found = new Map<number, TsSymbol>();
    const queue = [...from];
    for (let s = queue.pop(); s !== undefined; s = queue.pop()) {
      for (const next of this.referencedBy(s)) {
        if (published.has(next.id) || found.has(next.id)) continue;
        found.set(next.id, next);
        queue.push(next);
      }
    }
    return [...found.values()].sort((a, b) => {
      const ka = `${a.name} ${this.fileOf(a)}`;
      const kb = `${b.name} ${this.fileOf(b)}`;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  }

  private referencedBy(symbol: TsSymbol): TsSymbol[] {
    const known = this.references.get(symbol.id);
    if (known !== undefined) return known;
    const names: Node[] = [];
    for (const declaration of this.declarationsOf(symbol)) collectTypeNames(declaration, names);
    const symbols = names.length === 0 ? [] : this.project.checker.getSymbolAtLocation(names);
    const own = new Map<number, TsSymbol>();
    for (const s of symbols) {
      if (s === undefined) continue;
      const target = this.resolved(s);
      if (target.id === symbol.id || !this.isOwn(target)) continue;
      own.set(target.id, target);
    }
    const list = [...own.values()];
    this.references.set(symbol.id, list);
    return list;
  }

  private isOwn(symbol: TsSymbol): boolean {
    return symbol.declarations.some(
      (d) => d.path.startsWith(this.own) && !d.path.slice(this.own.length).includes('node_modules/'),
    );
  }
}

/**
 * A class's private members are printed by name only (`private deps;`): not API, so renaming one
 * must not change the snapshot. A private constructor stays (it says the class is not `new`-able),
 * and so does `#private;` (its presence changes what the class is assignable from).
 */
const PRIVATE_MEMBER = /^ +private (?:static )?(?:readonly )?[A-Za-z_$][\w$]*;$/;

function withoutPrivateMembers(text: string): string {
  return text
    .split('\n')
    .filter((line) => !PRIVATE_MEMBER.test(line))
    .join('\n');
}

/** The name nodes of every type reference, heritage clause, `typeof` and `import()` type. */
function collectTypeNames(node: Node, out: Node[]): void {
  const n = node as Node & Record<string, Node | undefined>;
  const name =
    node.kind === SyntaxKind.TypeReference
      ? n.typeName
      : node.kind === SyntaxKind.ExpressionWithTypeArguments
        ? n.expression
        : node.kind === SyntaxKind.TypeQuery
          ? n.exprName
          : node.kind === SyntaxKind.ImportType
            ? n.qualifier
            : undefined;
  if (name !== undefined) out.push(rightmost(name));
  node.forEachChild((child) => {
    collectTypeNames(child, out);
    return undefined;
  });
}

/** `a.b.C` names `C`; the checker resolves the rightmost identifier to the referenced symbol. */
function rightmost(name: Node): Node {
  const n = name as Node & { right?: Node; name?: Node };
  if (name.kind === SyntaxKind.QualifiedName && n.right !== undefined) return n.right;
  if (name.kind === SyntaxKind.PropertyAccessExpression && n.name !== undefined) return n.name;
  return name;
}
