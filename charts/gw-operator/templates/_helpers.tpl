{{- /*
Named templates shared by every template of the chart: whether anything renders, names, labels, the effective
webhook port, the webhook clientConfig and the manager container's env list.
*/ -}}

{{- /* "true" when the operator component is on (global.components.operator, default true), else "". */ -}}
{{- define "gw-operator.enabled" -}}
{{- if dig "components" "operator" true (.Values.global | default dict) -}}true{{- end -}}
{{- end -}}

{{- define "gw-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- /* fullnameOverride, else the release name when it contains the chart name, else <release>-<name>. */ -}}
{{- define "gw-operator.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "gw-operator.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "gw-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gw-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
control-plane: controller-manager
{{- end -}}

{{- define "gw-operator.labels" -}}
app.kubernetes.io/name: {{ include "gw-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ include "gw-operator.chart" . }}
{{- end -}}

{{- define "gw-operator.serviceAccountName" -}}
{{- printf "%s-controller-manager" (include "gw-operator.fullname" .) -}}
{{- end -}}

{{- define "gw-operator.webhookServiceName" -}}
{{- printf "%s-webhook-service" (include "gw-operator.fullname" .) -}}
{{- end -}}

{{- /* webhooks.port when it differs from its default 9443, else the deprecated webhookPort (default 9443 too). */ -}}
{{- define "gw-operator.webhookPort" -}}
{{- if ne (int .Values.webhooks.port) 9443 -}}
{{- int .Values.webhooks.port -}}
{{- else -}}
{{- int .Values.webhookPort -}}
{{- end -}}
{{- end -}}

{{- /*
Who provides the webhook serving certificate (values.yaml webhooks.tls):
  cert-manager  useCertManager and the cluster serves cert-manager.io/v1 (helm template: only with
                --api-versions cert-manager.io/v1, since it has no cluster to ask)
  manual        otherwise, when caBundle is set: you create the secret
  generated     otherwise: the chart generates a CA and the certificate (Secret in templates/webhooks.yaml)
*/ -}}
{{- define "gw-operator.webhookCertificateSource" -}}
{{- if and .Values.webhooks.tls.useCertManager (.Capabilities.APIVersions.Has "cert-manager.io/v1") -}}
cert-manager
{{- else if .Values.webhooks.tls.caBundle -}}
manual
{{- else -}}
generated
{{- end -}}
{{- end -}}

{{- /* Annotations of both webhook configurations: webhooks.annotations plus cert-manager's CA injection. */ -}}
{{- define "gw-operator.webhookAnnotations" -}}
{{- $annotations := deepCopy (.Values.webhooks.annotations | default dict) -}}
{{- if eq (include "gw-operator.webhookCertificateSource" .) "cert-manager" -}}
{{- $_ := set $annotations "cert-manager.io/inject-ca-from" (printf "%s/%s-serving-cert" .Release.Namespace (include "gw-operator.fullname" .)) -}}
{{- end -}}
{{- include "gw-operator.stringMap" $annotations -}}
{{- end -}}

{{- /* A map of strings (labels, annotations, nodeSelector) as YAML, every value quoted: --set a=true stays "true". */ -}}
{{- define "gw-operator.stringMap" -}}
{{- range $key, $value := . }}
{{ $key | quote }}: {{ $value | toString | quote }}
{{- end -}}
{{- end -}}

{{- /* clientConfig of one webhook; call with (dict "root" $ "path" "/mutate-..." "caBundle" <base64 PEM or "">) */ -}}
{{- define "gw-operator.webhookClientConfig" -}}
{{- $root := .root -}}
{{- if $root.Values.webhooks.url }}
url: {{ printf "%s%s" (trimSuffix "/" $root.Values.webhooks.url) .path | quote }}
{{- else }}
service:
  name: {{ include "gw-operator.webhookServiceName" $root }}
  namespace: {{ $root.Release.Namespace }}
  path: {{ .path }}
{{- end }}
{{- with .caBundle }}
caBundle: {{ . }}
{{- end }}
{{- end -}}

{{- /*
The manager's env: POD_NAMESPACE, then envVars in order. The entry named GW_OPERATOR_LICENSEKEY becomes a
secretKeyRef to global.secrets.useSecretName (key OperatorLicense) when that is set, else the value of
global.license.operator when that is set, else the entry as given when it carries a value or valueFrom, else it
is left out (the envFrom secret supplies the key). Without such an entry the license is appended when set.
*/ -}}
{{- define "gw-operator.env" -}}
{{- $license := dict -}}
{{- $secretName := dig "secrets" "useSecretName" "" (.Values.global | default dict) -}}
{{- $licenseKey := dig "license" "operator" "" (.Values.global | default dict) -}}
{{- if $secretName -}}
{{- $license = dict "name" "GW_OPERATOR_LICENSEKEY" "valueFrom" (dict "secretKeyRef" (dict "name" $secretName "key" "OperatorLicense")) -}}
{{- else if $licenseKey -}}
{{- $license = dict "name" "GW_OPERATOR_LICENSEKEY" "value" $licenseKey -}}
{{- end -}}
{{- $env := list (dict "name" "POD_NAMESPACE" "valueFrom" (dict "fieldRef" (dict "fieldPath" "metadata.namespace"))) -}}
{{- $placed := false -}}
{{- range .Values.envVars -}}
{{- if eq .name "GW_OPERATOR_LICENSEKEY" -}}
{{- $placed = true -}}
{{- if $license -}}
{{- $env = append $env $license -}}
{{- else if or .value .valueFrom -}}
{{- $env = append $env . -}}
{{- end -}}
{{- else -}}
{{- $env = append $env . -}}
{{- end -}}
{{- end -}}
{{- if and $license (not $placed) -}}
{{- $env = append $env $license -}}
{{- end -}}
{{- toYaml $env -}}
{{- end -}}
