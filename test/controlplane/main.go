// Command controlplane is ONE multi-call binary holding the parts of a Kubernetes control plane our tests run for
// real: etcd, kube-apiserver, kube-controller-manager and kubectl. The component is chosen by argv[1]
// (`controlplane kube-apiserver --flags...`) or, busybox style, by the name it was invoked under (a `kubectl`
// symlink to this binary is kubectl). One link step instead of four and one shared Go build cache.
//
// Each process runs exactly one component: kube-apiserver and kube-controller-manager both install a process-wide
// signal handler that panics when installed twice, so they are never co-hosted in one process.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	_ "time/tzdata"

	"go.etcd.io/etcd/server/v3/etcdmain"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	kubectlcmd "k8s.io/kubectl/pkg/cmd"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

var components = map[string]func() int{
	"etcd": func() int {
		etcdmain.Main(os.Args)
		return 0
	},
	"kube-apiserver": func() int {
		return cli.Run(apiserver.NewAPIServerCommand())
	},
	"kube-controller-manager": func() int {
		return cli.Run(controllermanager.NewControllerManagerCommand())
	},
	"kubectl": func() int {
		if err := cli.RunNoErrOutput(kubectlcmd.NewDefaultKubectlCommand()); err != nil {
			// kubectl's own error printer already wrote the message; only the exit code is left to set.
			return 1
		}
		return 0
	},
}

func main() {
	name := filepath.Base(os.Args[0])
	if _, ok := components[name]; !ok {
		if len(os.Args) < 2 {
			usage()
		}
		name = os.Args[1]
		// Every component parses os.Args itself; make it look as if the component had been invoked directly.
		os.Args = append([]string{name}, os.Args[2:]...)
	}
	run, ok := components[name]
	if !ok {
		usage()
	}
	os.Exit(run())
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: controlplane etcd|kube-apiserver|kube-controller-manager|kubectl [flags...]")
	os.Exit(2)
}
