// The test node's fixed addresses and the configuration files of its parts (containerd, the CNI bridge network,
// the kubelet), as text. Pure: it writes nothing; src/up/node/node.ts puts the files in the node's directory.
//
// Addresses are local-only: the node's address 10.99.0.1/32 sits on a bridge of its own (no traffic leaves the
// machine), pods get 10.98.0.0/24 on the CNI bridge, Services 10.0.0.0/24 (the control plane's
// --service-cluster-ip-range).
import { stringify } from 'yaml';

export const NODE_NAME = 'gw-node';
export const NODE_IP = '10.99.0.1';
export const NODE_BRIDGE = 'gwnode0';
export const CNI_BRIDGE = 'gwcni0';
export const CNI_NETWORK = 'gw-node';
export const POD_CIDR = '10.98.0.0/24';
export const POD_GATEWAY = '10.98.0.1';
/** Where pods reach the apiserver: a forwarder on the node address (the apiserver listens on loopback only). */
export const APISERVER_NODE_PORT = 6443;
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10';
/** The kubelet's fixed ports: one test node per machine (src/up/node/node-lock.ts). */
export const KUBELET_PORT = 10250;
export const KUBELET_HEALTHZ_PORT = 10248;
export const KUBE_PROXY_METRICS_PORT = 10249;
export const KUBE_PROXY_HEALTHZ_PORT = 10256;

export interface NodePaths {
  dir: string;
  containerdRoot: string;
  containerdState: string;
  containerdSocket: string;
  cniConfDir: string;
  cniState: string;
  kubeletRoot: string;
  podLogs: string;
  logs: string;
}

export function nodePaths(dir: string): NodePaths {
  return {
    dir,
    containerdRoot: `${dir}/containerd/root`,
    containerdState: `${dir}/containerd/state`,
    containerdSocket: `${dir}/containerd/containerd.sock`,
    cniConfDir: `${dir}/cni/net.d`,
    cniState: `${dir}/cni/state`,
    kubeletRoot: `${dir}/kubelet`,
    podLogs: `${dir}/pod-logs`,
    logs: `${dir}/logs`,
  };
}

export function containerdConfig(paths: NodePaths, cniBinDir: string, runc: string): string {
  return `version = 2
root = "${paths.containerdRoot}"
state = "${paths.containerdState}"
[grpc]
  address = "${paths.containerdSocket}"
[ttrpc]
  address = "${paths.containerdSocket}.ttrpc"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${PAUSE_IMAGE}"
  enable_unprivileged_ports = false
  netns_mounts_under_state_dir = true
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        BinaryName = "${runc}"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "${cniBinDir}"
    conf_dir = "${paths.cniConfDir}"
[plugins."io.containerd.internal.v1.opt"]
  path = "${paths.dir}/containerd/opt"
`;
}

export function cniConfig(paths: NodePaths): string {
  return JSON.stringify(
    {
      cniVersion: '0.4.0',
      name: CNI_NETWORK,
      plugins: [
        {
          type: 'bridge',
          bridge: CNI_BRIDGE,
          isGateway: true,
          ipMasq: false,
          hairpinMode: true,
          ipam: { type: 'host-local', dataDir: paths.cniState, ranges: [[{ subnet: POD_CIDR, gateway: POD_GATEWAY }]], routes: [{ dst: '0.0.0.0/0' }] },
        },
      ],
    },
    null,
    2,
  );
}

export function kubeletConfig(paths: NodePaths, cgroupRoot: string): string {
  return stringify({
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    failCgroupV1: false,
    cgroupDriver: 'cgroupfs',
    cgroupRoot,
    containerRuntimeEndpoint: `unix://${paths.containerdSocket}`,
    address: NODE_IP,
    port: KUBELET_PORT,
    readOnlyPort: 0,
    healthzBindAddress: '127.0.0.1',
    healthzPort: KUBELET_HEALTHZ_PORT,
    authentication: { anonymous: { enabled: true }, webhook: { enabled: false } },
    authorization: { mode: 'AlwaysAllow' },
    failSwapOn: false,
    podLogsDir: paths.podLogs,
    resolvConf: '/etc/resolv.conf',
    registerNode: true,
    serializeImagePulls: false,
    // Images are imported, never pulled: a full disk must not make the kubelet delete them or evict pods.
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '1%', 'imagefs.available': '1%' },
    // The kubelet then sets a few kernel sysctls (vm.overcommit_memory, kernel.panic, ...): the teardown restores
    // them from the snapshot taken before the node started (true would make it refuse to start on this host).
    protectKernelDefaults: false,
  });
}
