/**
 * A protocol-faithful fake of the Kubernetes API endpoints berth uses, for tests on a machine
 * where no API server can run: `GET /version`; pods create / get / list / watch / patch / delete
 * with resourceVersions (a watch replays from a resourceVersion, a too-old one is 410 Gone);
 * and `pods/exec` over a real WebSocket with the channel protocol (subprotocols
 * `v5.channel.k8s.io` and older; channels 0-4, 255 on v5; a v1 Status on channel 3 whose
 * `details.causes[reason=ExitCode]` carries a non-zero exit code). Behind each pod is a container
 * of the local Docker engine, so commands are real processes. Faults are switchable: RBAC
 * refusals with the server's message, quota, images that cannot be pulled (any image the engine
 * lacks), eviction, a hung or absent server. `SelfSubjectAccessReview` answers from the same
 * RBAC refusals, so a permissions check sees what the endpoints would do.
 * @module
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type {
  V1Container,
  V1ContainerStatus,
  V1Pod,
  V1SelfSubjectAccessReview,
  V1Status,
} from '@kubernetes/client-node';
import { type WebSocket, WebSocketServer } from 'ws';
import {
  type ContainerRequest,
  containerRunning,
  execExitCode,
  execRunning,
  FrameSplitter,
  imagePresent,
  killContainer,
  removeContainer,
  resizeExec,
  startContainer,
  startExec,
  stopContainer,
} from './docker-backend.js';
import { PodStore, type StoredEvent } from './pod-store.js';

/** How the fake behaves. */
export interface FakeOptions {
  /** Subprotocols the exec endpoint accepts, in its order of preference. */
  readonly protocols?: readonly string[];
  /** Bearer token every request must carry (none: no authentication). */
  readonly token?: string;
  /** Labels of the one node, for node selectors. */
  readonly nodeLabels?: Readonly<Record<string, string>>;
  /** RuntimeClass name → OCI runtime registered in the engine. */
  readonly runtimeClasses?: Readonly<Record<string, string>>;
  /** Serve HTTPS with this key and certificate (PEM), as every real API server does. */
  readonly tls?: { readonly key: string; readonly cert: string };
}

interface PodRuntime {
  containerId: string | undefined;
  execs: Set<WebSocket>;
  deleting: boolean;
}

const DEFAULT_PROTOCOLS = [
  'v5.channel.k8s.io',
  'v4.channel.k8s.io',
  'v3.channel.k8s.io',
  'v2.channel.k8s.io',
  'channel.k8s.io',
];
const NODE = 'fake-node';
const ACCESS_REVIEW_PATH = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';

function status(code: number, reason: string, message: string, details?: object): V1Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
    ...(details ? { details } : {}),
  };
}

function matchesSelector(labels: Readonly<Record<string, string>>, selector: string | null): boolean {
  if (selector === null || selector === '') return true;
  return selector.split(',').every((term) => {
    const [key, value] = term.split('=');
    return key !== undefined && labels[key] === value;
  });
}

/** The fake server. `start()` listens on loopback; `url` is its address. */
export class FakeApiServer {
  readonly store = new PodStore();
  /** Requests served, as `VERB path` (for tests that check what berth asked). */
  readonly requests: string[] = [];
  /** The subprotocol of every exec WebSocket, in order. */
  readonly negotiated: string[] = [];
  private readonly options: FakeOptions;
  private readonly runtime = new Map<string, PodRuntime>();
  private readonly denied = new Set<string>();
  private quotaPods: number | undefined;
  private hung = false;
  private readonly hungSockets = new Set<Socket>();
  private readonly sockets = new Set<Socket>();
  private readonly server: http.Server;
  private readonly wss: WebSocketServer;
  private readonly watches = new Set<() => void>();

  constructor(options: FakeOptions = {}) {
    this.options = options;
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => void this.handle(req, res);
    // 1 MiB of headers, as Go's HTTP server (and so kube-apiserver) allows: exec commands travel in the URL.
    const limits = { maxHeaderSize: 1024 * 1024 };
    this.server = options.tls
      ? https.createServer({ ...limits, key: options.tls.key, cert: options.tls.cert }, handler)
      : http.createServer(limits, handler);
    const protocols = options.protocols ?? DEFAULT_PROTOCOLS;
    this.wss = new WebSocketServer({
      noServer: true,
      handleProtocols: (offered) => protocols.find((protocol) => offered.has(protocol)) ?? false,
    });
    this.server.on('upgrade', (req, socket, head) => void this.upgrade(req, socket as Socket, head));
    this.server.on(this.options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  get url(): string {
    const address = this.server.address() as AddressInfo;
    return `${this.options.tls ? 'https' : 'http'}://127.0.0.1:${address.port}`;
  }

  async start(port = 0): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
  }

  /** Stop listening, drop every connection, remove every container. */
  async close(): Promise<void> {
    for (const stop of this.watches) stop();
    for (const socket of this.sockets) socket.destroy();
    for (const socket of this.hungSockets) socket.destroy();
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await Promise.all(
      [...this.runtime.values()].map((pod) =>
        pod.containerId ? removeContainer(pod.containerId) : undefined,
      ),
    );
    this.runtime.clear();
  }

  /** Refuse `verb` on `resource` (e.g. `create`, `pods/exec`) with RBAC's 403. */
  deny(verb: string, resource: string): void {
    this.denied.add(`${verb} ${resource}`);
  }

  allowAll(): void {
    this.denied.clear();
  }

  /** A ResourceQuota allowing at most `pods` pods in a namespace (undefined: none). */
  setPodQuota(pods: number | undefined): void {
    this.quotaPods = pods;
  }

  /** While hung, requests and upgrades are accepted and never answered. */
  setHung(hung: boolean): void {
    this.hung = hung;
    if (!hung) {
      for (const socket of this.hungSockets) socket.destroy();
      this.hungSockets.clear();
    }
  }

  /** The engine's container behind a pod. */
  containerOf(namespace: string, name: string): string | undefined {
    return this.runtime.get(`${namespace}/${name}`)?.containerId;
  }

  /** The node evicts the pod: status Failed/Evicted, its container killed, its execs cut. */
  async evict(
    namespace: string,
    name: string,
    message = 'The node was low on resource: memory.',
  ): Promise<void> {
    const runtime = this.runtime.get(`${namespace}/${name}`);
    this.store.update(namespace, name, (pod) => {
      pod.status = {
        ...pod.status,
        phase: 'Failed',
        reason: 'Evicted',
        message,
        conditions: [{ type: 'Ready', status: 'False', reason: 'PodFailed' }],
      };
    });
    if (runtime?.containerId) await killContainer(runtime.containerId);
    for (const ws of runtime?.execs ?? []) ws.terminate();
  }

  private forbidden(verb: string, resource: string, namespace: string, name?: string): V1Status | undefined {
    if (!this.denied.has(`${verb} ${resource}`)) return undefined;
    const [plain, sub] = resource.split('/');
    const subject = name ? `${plain} "${name}"` : plain;
    return status(
      403,
      'Forbidden',
      `${subject} is forbidden: User "system:serviceaccount:${namespace}:berth" cannot ${verb} resource "${resource}" in API group "" in the namespace "${namespace}"`,
      { name, kind: plain, ...(sub ? {} : {}) },
    );
  }

  /** A SelfSubjectAccessReview answered from the refusals in force (as RBAC would). */
  private review(review: V1SelfSubjectAccessReview): V1SelfSubjectAccessReview {
    const attributes = review.spec?.resourceAttributes ?? {};
    const resource =
      attributes.subresource === undefined
        ? (attributes.resource ?? '')
        : `${attributes.resource}/${attributes.subresource}`;
    const allowed = !this.denied.has(`${attributes.verb} ${resource}`);
    return {
      ...review,
      status: allowed
        ? { allowed, reason: 'RBAC: allowed by RoleBinding "berth/berth-test" of Role "berth"' }
        : { allowed },
    };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (this.hung) {
      this.hungSockets.add(req.socket);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push(
      `${req.method} ${url.pathname}${url.searchParams.get('watch') === 'true' ? '?watch' : ''}`,
    );
    const send = (code: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    };
    if (this.options.token !== undefined && req.headers.authorization !== `Bearer ${this.options.token}`) {
      send(401, status(401, 'Unauthorized', 'Unauthorized'));
      return;
    }
    try {
      if (url.pathname === '/version') {
        send(200, { major: '1', minor: '31', gitVersion: 'v1.31.0-fake', platform: 'linux/amd64' });
        return;
      }
      if (req.method === 'POST' && url.pathname === ACCESS_REVIEW_PATH) {
        send(201, this.review((await readJson(req)) as V1SelfSubjectAccessReview));
        return;
      }
      const match = /^\/api\/v1\/namespaces\/([^/]+)\/pods(?:\/([^/]+))?$/.exec(url.pathname);
      if (match === null) {
        send(
          404,
          status(404, 'NotFound', `the server could not find the requested resource (${url.pathname})`),
        );
        return;
      }
      const namespace = decodeURIComponent(match[1]!);
      const name = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
      const body = await readJson(req);
      const verb =
        req.method === 'POST'
          ? 'create'
          : req.method === 'DELETE'
            ? 'delete'
            : req.method === 'PATCH'
              ? 'patch'
              : name !== undefined
                ? 'get'
                : url.searchParams.get('watch') === 'true'
                  ? 'watch'
                  : 'list';
      const refused = this.forbidden(verb, 'pods', namespace, name);
      if (refused) {
        send(403, refused);
        return;
      }
      if (verb === 'create') send(...(await this.createPod(namespace, body as V1Pod)));
      else if (verb === 'get') {
        const pod = this.store.get(namespace, name!);
        if (pod) send(200, pod);
        else send(404, status(404, 'NotFound', `pods "${name}" not found`, { name, kind: 'pods' }));
      } else if (verb === 'list') {
        const items = this.store
          .list(namespace)
          .filter((pod) =>
            matchesSelector(pod.metadata?.labels ?? {}, url.searchParams.get('labelSelector')),
          );
        send(200, {
          kind: 'PodList',
          apiVersion: 'v1',
          metadata: { resourceVersion: String(this.store.resourceVersion) },
          items,
        });
      } else if (verb === 'watch') this.watch(namespace, url, res);
      else if (verb === 'patch') {
        if (!String(req.headers['content-type']).startsWith('application/merge-patch+json')) {
          send(
            415,
            status(
              415,
              'UnsupportedMediaType',
              `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
            ),
          );
          return;
        }
        const patch = body as V1Pod;
        const pod = this.store.update(namespace, name!, (stored) => {
          stored.metadata ??= {};
          stored.metadata.annotations = { ...stored.metadata.annotations, ...patch.metadata?.annotations };
          stored.metadata.labels = { ...stored.metadata.labels, ...patch.metadata?.labels };
        });
        if (pod) send(200, pod);
        else send(404, status(404, 'NotFound', `pods "${name}" not found`, { name, kind: 'pods' }));
      } else {
        const grace = Number(
          url.searchParams.get('gracePeriodSeconds') ??
            (body as { gracePeriodSeconds?: number } | undefined)?.gracePeriodSeconds ??
            30,
        );
        const pod = this.deletePod(namespace, name!, grace);
        if (pod) send(200, pod);
        else send(404, status(404, 'NotFound', `pods "${name}" not found`, { name, kind: 'pods' }));
      }
    } catch (error) {
      send(500, status(500, 'InternalError', (error as Error).message));
    }
  }

  private async createPod(namespace: string, pod: V1Pod): Promise<[number, unknown]> {
    const name = pod.metadata?.name ?? `${pod.metadata?.generateName ?? ''}${randomBytes(3).toString('hex')}`;
    const containers = pod.spec?.containers ?? [];
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || containers.length !== 1 || !containers[0]!.image) {
      return [
        422,
        status(
          422,
          'Invalid',
          `Pod "${name}" is invalid: the fake takes one container with an image and a DNS-1123 name`,
        ),
      ];
    }
    if (this.store.get(namespace, name)) {
      return [409, status(409, 'AlreadyExists', `pods "${name}" already exists`, { name, kind: 'pods' })];
    }
    if (this.quotaPods !== undefined && this.store.list(namespace).length >= this.quotaPods) {
      const used = this.store.list(namespace).length;
      return [
        403,
        status(
          403,
          'Forbidden',
          `pods "${name}" is forbidden: exceeded quota: pod-count, requested: pods=1, used: pods=${used}, limited: pods=${this.quotaPods}`,
          { name, kind: 'pods' },
        ),
      ];
    }
    const stored = this.store.add({
      ...pod,
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        ...pod.metadata,
        name,
        namespace,
        uid: randomBytes(16).toString('hex'),
        creationTimestamp: new Date(),
      },
      status: { phase: 'Pending', qosClass: 'BestEffort' },
    });
    this.runtime.set(`${namespace}/${name}`, { containerId: undefined, execs: new Set(), deleting: false });
    void this.runPod(namespace, name, containers[0]!, pod);
    return [201, stored];
  }

  /** The kubelet's part: schedule, pull (never: a missing image fails), create, start, ready. */
  private async runPod(namespace: string, name: string, container: V1Container, pod: V1Pod): Promise<void> {
    const key = `${namespace}/${name}`;
    const runtime = this.runtime.get(key)!;
    const nodeLabels = this.options.nodeLabels ?? {
      'kubernetes.io/hostname': NODE,
      'kubernetes.io/os': 'linux',
    };
    const selector = pod.spec?.nodeSelector ?? {};
    await tick();
    if (!Object.entries(selector).every(([label, value]) => nodeLabels[label] === value)) {
      this.store.update(namespace, name, (stored) => {
        stored.status!.conditions = [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.",
          },
        ];
      });
      return;
    }
    this.store.update(namespace, name, (stored) => {
      stored.spec!.nodeName = NODE;
      stored.status!.conditions = [{ type: 'PodScheduled', status: 'True' }];
      stored.status!.containerStatuses = [waiting(container, 'ContainerCreating', '')];
    });
    const image = container.image!;
    if (!(await imagePresent(image))) {
      const message = `rpc error: code = NotFound desc = failed to pull and unpack image "${image}": not found`;
      this.store.update(namespace, name, (stored) => {
        stored.status!.containerStatuses = [waiting(container, 'ErrImagePull', message)];
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      this.store.update(namespace, name, (stored) => {
        stored.status!.containerStatuses = [
          waiting(container, 'ImagePullBackOff', `Back-off pulling image "${image}"`),
        ];
      });
      return;
    }
    if (runtime.deleting) return;
    const security = container.securityContext ?? {};
    const podSecurity = pod.spec?.securityContext ?? {};
    const volumes = new Map((pod.spec?.volumes ?? []).map((volume) => [volume.name, volume]));
    const binds: string[] = [];
    const tmpfs: string[] = [];
    for (const mount of container.volumeMounts ?? []) {
      const volume = volumes.get(mount.name);
      if (volume?.hostPath)
        binds.push(`${volume.hostPath.path}:${mount.mountPath}${mount.readOnly ? ':ro' : ''}`);
      else if (volume?.emptyDir) tmpfs.push(mount.mountPath);
    }
    const runtimeClass = pod.spec?.runtimeClassName;
    const ociRuntime = runtimeClass === undefined ? undefined : this.options.runtimeClasses?.[runtimeClass];
    if (runtimeClass !== undefined && ociRuntime === undefined) {
      // The admission controller rejects a pod naming an unknown RuntimeClass; the fake fails it here.
      this.store.update(namespace, name, (stored) => {
        stored.status!.containerStatuses = [
          waiting(container, 'CreateContainerError', `RuntimeClass "${runtimeClass}" not found`),
        ];
      });
      return;
    }
    const user =
      podSecurity.runAsUser === undefined
        ? undefined
        : `${podSecurity.runAsUser}${podSecurity.runAsGroup === undefined ? '' : `:${podSecurity.runAsGroup}`}`;
    const limits = container.resources?.limits ?? {};
    const request: ContainerRequest = {
      name: `fake-k8s-${namespace}-${name}-${randomBytes(3).toString('hex')}`,
      image,
      command: [...(container.command ?? []), ...(container.args ?? [])],
      env: (container.env ?? []).map((entry) => `${entry.name}=${entry.value ?? ''}`),
      workingDir: container.workingDir,
      user,
      binds,
      tmpfs,
      capDrop: security.capabilities?.drop ?? [],
      noNewPrivileges: security.allowPrivilegeEscalation === false,
      readOnlyRoot: security.readOnlyRootFilesystem === true,
      memoryBytes: limits.memory === undefined ? undefined : Number(limits.memory),
      nanoCpus:
        limits.cpu === undefined ? undefined : Math.round(Number.parseFloat(String(limits.cpu)) * 1e6),
      runtime: ociRuntime,
    };
    let containerId: string;
    try {
      containerId = await startContainer(request);
    } catch (error) {
      this.store.update(namespace, name, (stored) => {
        stored.status!.containerStatuses = [
          waiting(container, 'CreateContainerError', (error as Error).message),
        ];
      });
      return;
    }
    runtime.containerId = containerId;
    if (runtime.deleting) {
      await removeContainer(containerId);
      return;
    }
    this.store.update(namespace, name, (stored) => {
      stored.status = {
        ...stored.status,
        phase: 'Running',
        podIP: '10.0.0.2',
        startTime: new Date(),
        conditions: [
          { type: 'PodScheduled', status: 'True' },
          { type: 'Initialized', status: 'True' },
          { type: 'ContainersReady', status: 'True' },
          { type: 'Ready', status: 'True' },
        ],
        containerStatuses: [
          {
            name: container.name,
            image,
            imageID: image,
            ready: true,
            restartCount: 0,
            started: true,
            state: { running: { startedAt: new Date() } },
          },
        ],
      };
    });
  }

  private deletePod(namespace: string, name: string, graceSeconds: number): V1Pod | undefined {
    const key = `${namespace}/${name}`;
    const runtime = this.runtime.get(key);
    const current = this.store.get(namespace, name);
    if (current === undefined) return undefined;
    const finish = async () => {
      if (runtime?.containerId) await removeContainer(runtime.containerId);
      for (const ws of runtime?.execs ?? []) ws.terminate();
      this.runtime.delete(key);
      this.store.remove(namespace, name);
    };
    if (runtime) runtime.deleting = true;
    if (graceSeconds <= 0 || current.spec?.nodeName === undefined || runtime?.containerId === undefined) {
      // Force, or nothing runs yet: the object goes at once (the kubelet cleans up after).
      const pod = this.store.update(namespace, name, (stored) => {
        stored.metadata!.deletionTimestamp = new Date();
        stored.metadata!.deletionGracePeriodSeconds = 0;
      });
      void finish();
      return pod;
    }
    if (current.metadata?.deletionTimestamp !== undefined) return current;
    const pod = this.store.update(namespace, name, (stored) => {
      stored.metadata!.deletionTimestamp = new Date();
      stored.metadata!.deletionGracePeriodSeconds = graceSeconds;
    });
    void stopContainer(runtime.containerId, graceSeconds).then(finish, finish);
    return pod;
  }

  private watch(namespace: string, url: URL, res: http.ServerResponse): void {
    const fieldSelector = url.searchParams.get('fieldSelector');
    const nameMatch = fieldSelector?.startsWith('metadata.name=')
      ? fieldSelector.slice('metadata.name='.length)
      : undefined;
    const labelSelector = url.searchParams.get('labelSelector');
    const wanted = (event: StoredEvent) =>
      event.pod.metadata?.namespace === namespace &&
      (nameMatch === undefined || event.pod.metadata?.name === nameMatch) &&
      matchesSelector(event.pod.metadata?.labels ?? {}, labelSelector);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    const write = (event: StoredEvent) => {
      if (wanted(event)) res.write(`${JSON.stringify({ type: event.type, object: event.pod })}\n`);
    };
    const from = url.searchParams.get('resourceVersion');
    if (from !== null && from !== '' && from !== '0') {
      const replay = this.store.since(Number(from));
      if (replay === null) {
        res.end(
          `${JSON.stringify({ type: 'ERROR', object: status(410, 'Expired', `too old resource version: ${from} (${this.store.oldestReplayable})`) })}\n`,
        );
        return;
      }
      for (const event of replay) write(event);
    } else {
      for (const pod of this.store.list(namespace)) write({ type: 'ADDED', rv: 0, pod });
    }
    const unsubscribe = this.store.subscribe(write);
    const timeoutSeconds = Number(url.searchParams.get('timeoutSeconds') ?? 0);
    const timer = timeoutSeconds > 0 ? setTimeout(() => stop(), timeoutSeconds * 1000) : undefined;
    const stop = () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
      this.watches.delete(stop);
      res.end();
    };
    this.watches.add(stop);
    res.on('close', stop);
  }

  private async upgrade(req: http.IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    if (this.hung) {
      this.hungSockets.add(socket);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push(`UPGRADE ${url.pathname}`);
    const refuse = (code: number, body: V1Status) => {
      const text = JSON.stringify(body);
      socket.end(
        `HTTP/1.1 ${code} ${http.STATUS_CODES[code]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
      );
    };
    if (this.options.token !== undefined && req.headers.authorization !== `Bearer ${this.options.token}`) {
      refuse(401, status(401, 'Unauthorized', 'Unauthorized'));
      return;
    }
    const match = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/.exec(url.pathname);
    if (match === null) {
      refuse(404, status(404, 'NotFound', 'the server could not find the requested resource'));
      return;
    }
    const [, namespace, name] = match as unknown as [string, string, string];
    const refused = this.forbidden('create', 'pods/exec', namespace, name);
    if (refused) {
      refuse(403, refused);
      return;
    }
    const pod = this.store.get(namespace, name);
    if (pod === undefined) {
      refuse(404, status(404, 'NotFound', `pods "${name}" not found`, { name, kind: 'pods' }));
      return;
    }
    if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') {
      refuse(
        400,
        status(
          400,
          'BadRequest',
          `cannot exec into a container in a completed pod; current phase is ${pod.status.phase}`,
        ),
      );
      return;
    }
    const runtime = this.runtime.get(`${namespace}/${name}`);
    if (runtime?.containerId === undefined) {
      refuse(400, status(400, 'BadRequest', `pod ${name} does not have a host assigned`));
      return;
    }
    const containerId = runtime.containerId;
    const argv = url.searchParams.getAll('command');
    const tty = url.searchParams.get('tty') === 'true';
    const wantStdin = url.searchParams.get('stdin') === 'true';
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.negotiated.push(ws.protocol);
      runtime.execs.add(ws);
      ws.once('close', () => runtime.execs.delete(ws));
      void this.bridgeExec(ws, containerId, argv, tty, wantStdin);
    });
  }

  /** One exec: channel frames in and out, the Status at the end, as the kubelet streams it. */
  private async bridgeExec(
    ws: WebSocket,
    containerId: string,
    argv: string[],
    tty: boolean,
    stdin: boolean,
  ): Promise<void> {
    const v5 = ws.protocol === 'v5.channel.k8s.io';
    const frame = (channel: number, payload: Buffer | string) =>
      Buffer.concat([Buffer.from([channel]), typeof payload === 'string' ? Buffer.from(payload) : payload]);
    const early: Buffer[] = [];
    const onEarly = (data: Buffer) => early.push(data);
    ws.on('message', onEarly);
    if (!(await containerRunning(containerId))) {
      ws.send(frame(3, JSON.stringify(status(500, 'InternalError', 'container not found ("berth")'))));
      ws.close();
      return;
    }
    let exec: Awaited<ReturnType<typeof startExec>>;
    try {
      exec = await startExec(containerId, argv, { tty, stdin });
    } catch (error) {
      ws.send(frame(3, JSON.stringify({ ...status(500, 'InternalError', (error as Error).message) })));
      ws.close();
      return;
    }
    const { socket } = exec;
    let stdinGone = false;
    const onStdin = (data: Buffer) => {
      const channel = data[0];
      const payload = data.subarray(1);
      if (channel === 0) {
        // Backpressure to the client while the engine (the process's stdin) takes no more, as the
        // real API server's stream copy has: a client that writes to a command that does not
        // read fills its buffers instead of this process's memory.
        // Once the process is gone its stdin is dropped, as the real server's copy stops on EPIPE.
        if (stdinGone || socket.destroyed || socket.writableEnded) return;
        if (!socket.write(payload)) {
          ws.pause();
          const poll = setInterval(() => {
            void execRunning(exec.id).then((running) => {
              if (!running) {
                stdinGone = true;
                go();
              }
            });
          }, 100);
          const go = () => {
            clearInterval(poll);
            socket.off('drain', go);
            socket.off('close', go);
            ws.resume();
          };
          socket.on('drain', go);
          socket.on('close', go);
        }
      } else if (channel === 4) {
        const size = JSON.parse(payload.toString('utf8')) as Record<string, number>;
        const lower = Object.fromEntries(
          Object.entries(size).map(([key, value]) => [key.toLowerCase(), value]),
        );
        void resizeExec(exec.id, lower.width ?? 80, lower.height ?? 24).catch(() => undefined);
      } else if (channel === 255 && v5 && payload[0] === 0) {
        socket.end(); // close stdin: the engine half-closes the process's stdin
      }
    };
    ws.off('message', onEarly);
    ws.on('message', onStdin);
    for (const data of early) onStdin(data);
    // The client went away: the connection is gone, the process is not (Kubernetes cannot signal it).
    ws.once('close', () => socket.destroy());
    const splitter = new FrameSplitter((stream, payload) => {
      if (ws.readyState === ws.OPEN) ws.send(frame(stream === 2 ? 2 : 1, payload));
    });
    const deliver = (chunk: Buffer) => {
      if (tty) {
        if (ws.readyState === ws.OPEN) ws.send(frame(1, chunk));
      } else splitter.push(chunk);
      // Backpressure to the engine when the client reads slowly.
      if (ws.bufferedAmount > 1024 * 1024) {
        socket.pause();
        const wait = setInterval(() => {
          if (ws.bufferedAmount < 256 * 1024 || ws.readyState !== ws.OPEN) {
            clearInterval(wait);
            socket.resume();
          }
        }, 5);
      }
    };
    if (exec.head.length > 0) deliver(exec.head);
    socket.on('data', deliver);
    await new Promise<void>((resolve) => {
      socket.once('end', resolve);
      socket.once('close', resolve);
      socket.once('error', () => resolve());
    });
    if (ws.readyState !== ws.OPEN) return;
    const code = await execExitCode(exec.id);
    if (!(await containerRunning(containerId))) {
      // The container died under the exec (evicted, deleted): the kubelet just drops the stream.
      ws.terminate();
      return;
    }
    const result: V1Status =
      code === 0
        ? { metadata: {}, status: 'Success' }
        : status(
            500,
            'NonZeroExitCode',
            `command terminated with non-zero exit code: error executing command [${argv.join(' ')}], exit code ${code}`,
            { causes: [{ reason: 'ExitCode', message: String(code) }] },
          );
    if (v5) ws.send(frame(255, Buffer.from([1])));
    ws.send(frame(3, JSON.stringify(result)));
    ws.close(1000);
  }
}

function waiting(container: V1Container, reason: string, message: string): V1ContainerStatus {
  return {
    name: container.name,
    image: container.image ?? '',
    imageID: '',
    ready: false,
    restartCount: 0,
    started: false,
    state: { waiting: { reason, message } },
  };
}

function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 20));
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}
