export type {
  FindNetworkNamespacesOptions,
  NetworkNamespacesCheck,
} from './find-network-namespaces.js';
export { findNetworkNamespaces } from './find-network-namespaces.js';
export type { ClusterNode, NatsCluster, StartNatsClusterOptions } from './nats-cluster.js';
export { startNatsCluster } from './nats-cluster.js';
export type { LabMachine, LabRun, NetworkLab } from './network-lab.js';
export { createNetworkLab } from './network-lab.js';
