// Command node is ONE multi-call binary holding the parts of a Kubernetes node our e2e runs for real: kubelet,
// kube-proxy and kube-scheduler (the control plane binary in .. has no scheduler, and a node without one never gets
// a pod). Same conventions as ../main.go: the component is argv[1] or the name it was invoked under.
//
// It is a SEPARATE module and binary from the control plane on purpose: the control plane's cache key is a hash of
// ../go.mod, ../go.sum and ../main.go, and adding kubelet's dependencies there would rebuild it for everyone.
// Each process runs exactly one component.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	_ "time/tzdata"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	kubeproxy "k8s.io/kubernetes/cmd/kube-proxy/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"
	kubelet "k8s.io/kubernetes/cmd/kubelet/app"
)

var components = map[string]func() int{
	"kubelet": func() int {
		return cli.Run(kubelet.NewKubeletCommand(context.Background()))
	},
	"kube-proxy": func() int {
		return cli.Run(kubeproxy.NewProxyCommand())
	},
	"kube-scheduler": func() int {
		return cli.Run(scheduler.NewSchedulerCommand())
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
	fmt.Fprintln(os.Stderr, "usage: node kubelet|kube-proxy|kube-scheduler [flags...]")
	os.Exit(2)
}
