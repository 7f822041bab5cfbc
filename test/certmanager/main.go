// A minimal cert-manager for tests, from the library module github.com/cert-manager/cert-manager (the upstream
// binaries' modules, cmd/controller and cmd/cainjector, are not on the Go module proxy). Two commands:
//
//	certmanager controller --kubeconfig FILE   Issuers (self-signed) and Certificates: approve, issue, store in the Secret
//	certmanager cainjector --kubeconfig FILE   cert-manager.io/inject-ca-from into webhook configurations
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	apireg "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	cmscheme "github.com/cert-manager/cert-manager/pkg/client/clientset/versioned/scheme"
	"github.com/cert-manager/cert-manager/pkg/controller"
	"github.com/cert-manager/cert-manager/pkg/controller/cainjector"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/approver"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/selfsigned"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/issuing"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/keymanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/readiness"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/requestmanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/revisionmanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/trigger"
	_ "github.com/cert-manager/cert-manager/pkg/controller/issuers"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/selfsigned"
	"github.com/cert-manager/cert-manager/pkg/util"
)

var controllers = []string{
	"issuers", "certificaterequests-approver", "certificaterequests-issuer-selfsigned",
	"certificates-trigger", "certificates-key-manager", "certificates-request-manager",
	"certificates-issuing", "certificates-readiness", "certificates-revision-manager",
}

func runController(ctx context.Context, kubeconfig string) error {
	factory, err := controller.NewContextFactory(ctx, controller.ContextOptions{
		Kubeconfig: kubeconfig, KubernetesAPIQPS: 50, KubernetesAPIBurst: 100,
		IssuerOptions:      controller.IssuerOptions{ClusterResourceNamespace: "cert-manager"},
		CertificateOptions: controller.CertificateOptions{CertificateRequestMinimumBackoffDuration: time.Second, CertificateRequestMaximumBackoffDuration: time.Minute},
	})
	if err != nil {
		return err
	}
	var loops []controller.Interface
	for _, name := range controllers {
		constructor, ok := controller.Known()[name]
		if !ok {
			return fmt.Errorf("controller %s is not registered", name)
		}
		loop, err := constructor(factory)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		loops = append(loops, loop)
	}
	shared, err := factory.Build()
	if err != nil {
		return err
	}
	shared.SharedInformerFactory.Start(ctx.Done())
	shared.KubeSharedInformerFactory.Start(ctx.Done())
	shared.HTTP01ResourceMetadataInformersFactory.Start(ctx.Done())
	for _, loop := range loops {
		go func() { _ = loop.Run(2, ctx) }()
	}
	fmt.Println("cert-manager controller running")
	<-ctx.Done()
	return nil
}

func runCAInjector(ctx context.Context, kubeconfig string) error {
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	config = util.RestConfigWithUserAgent(config, "cainjector") // its field manager comes from the user agent
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, cmscheme.AddToScheme, apireg.AddToScheme, apiext.AddToScheme} {
		if err := add(scheme); err != nil {
			return err
		}
	}
	ctrl.SetLogger(klog.NewKlogr())
	// As upstream: Secrets are watched as metadata only, so they are read from the API, not from a cache.
	mgr, err := ctrl.NewManager(config, ctrl.Options{
		Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0",
		Client: client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Secret{}}}},
	})
	if err != nil {
		return err
	}
	err = cainjector.RegisterAllInjectors(ctx, mgr, cainjector.SetupOptions{
		EnableCertificatesDataSource: true,
		EnabledReconcilersFor:        map[string]bool{"mutatingwebhookconfiguration": true, "validatingwebhookconfiguration": true},
	})
	if err != nil {
		return err
	}
	fmt.Println("cert-manager cainjector running")
	return mgr.Start(ctx)
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: certmanager controller|cainjector --kubeconfig FILE")
		os.Exit(2)
	}
	flags := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	kubeconfig := flags.String("kubeconfig", "", "kubeconfig of the cluster")
	_ = flags.Parse(os.Args[2:])
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "controller":
		err = runController(ctx, *kubeconfig)
	case "cainjector":
		err = runCAInjector(ctx, *kubeconfig)
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
