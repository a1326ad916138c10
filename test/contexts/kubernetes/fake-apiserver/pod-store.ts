/**
 * The fake API server's storage: pods by namespace and name, one resourceVersion counter for the
 * whole store (as etcd's revision), and a bounded event history so a watch can start from a
 * resourceVersion and a too-old one is answered with 410 Gone, as the real server does.
 * @module
 */
import type { V1Pod } from '@kubernetes/client-node';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoredEvent {
  readonly type: WatchEventType;
  readonly rv: number;
  readonly pod: V1Pod;
}

type Listener = (event: StoredEvent) => void;

/** How many events a watch can replay. */
const HISTORY = 1000;

export class PodStore {
  private revision = 100;
  private readonly pods = new Map<string, V1Pod>();
  private readonly history: StoredEvent[] = [];
  private readonly listeners = new Set<Listener>();

  get resourceVersion(): number {
    return this.revision;
  }

  /** The oldest resourceVersion a watch may start after. */
  get oldestReplayable(): number {
    return this.history.length === 0 ? this.revision : this.history[0]!.rv - 1;
  }

  get(namespace: string, name: string): V1Pod | undefined {
    const pod = this.pods.get(`${namespace}/${name}`);
    return pod === undefined ? undefined : structuredClone(pod);
  }

  list(namespace: string | undefined): V1Pod[] {
    return [...this.pods.values()]
      .filter((pod) => namespace === undefined || pod.metadata?.namespace === namespace)
      .map((pod) => structuredClone(pod));
  }

  /** Store a new pod; resolves its resourceVersion. */
  add(pod: V1Pod): V1Pod {
    return this.commit('ADDED', pod);
  }

  /** Change a stored pod; undefined when it is gone. */
  update(namespace: string, name: string, change: (pod: V1Pod) => void): V1Pod | undefined {
    const current = this.pods.get(`${namespace}/${name}`);
    if (current === undefined) return undefined;
    const next = structuredClone(current);
    change(next);
    return this.commit('MODIFIED', next);
  }

  remove(namespace: string, name: string): V1Pod | undefined {
    const current = this.pods.get(`${namespace}/${name}`);
    if (current === undefined) return undefined;
    return this.commit('DELETED', structuredClone(current));
  }

  /** Events after `rv` (null when the history no longer reaches back that far). */
  since(rv: number): StoredEvent[] | null {
    if (rv < this.oldestReplayable) return null;
    return this.history.filter((event) => event.rv > rv);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private commit(type: WatchEventType, pod: V1Pod): V1Pod {
    this.revision += 1;
    pod.metadata ??= {};
    pod.metadata.resourceVersion = String(this.revision);
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    if (type === 'DELETED') this.pods.delete(key);
    else this.pods.set(key, pod);
    const event: StoredEvent = { type, rv: this.revision, pod: structuredClone(pod) };
    this.history.push(event);
    if (this.history.length > HISTORY) this.history.shift();
    for (const listener of this.listeners) listener(event);
    return structuredClone(pod);
  }
}
