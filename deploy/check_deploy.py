#!/usr/bin/env python3
"""Checks of the deployment files that need more than a schema; run by scripts/check-deploy.

    check_deploy.py crds LABEL < rendered.yaml > core.yaml
        Checks the custom resources of a rendered overlay (kubernetes-validate has no
        schemas for them) and writes every other document to stdout, for
        `kubernetes-validate --strict`. Fails on a custom resource of a kind not allowed.

    check_deploy.py coverage --root ROOT --overlay NAME=rendered.yaml ...
        Every service crate of the workspace (members under services/ but runtime and
        access), and the gateway, has in each rendered overlay a Deployment (command
        `paysite serve <name>`, /readyz and /healthz probes, resources, non-root, secrets by
        reference), a Service, an HPA, a PDB and a NetworkPolicy of its own, and a block in
        docker-compose.yml; plus the namespace-wide pieces (default deny, migration Job,
        tenants ConfigMap equal to config/tenants, Ingress hosts for every brand). Then it
        proves it would notice: each kind of object is removed from a scratch copy of the
        rendered documents in turn, and the check must fail naming it.

Prints one line per check and a closing `deploy: N passed, M failed`.
"""

from __future__ import annotations

import argparse
import copy
import glob
import json
import os
import re
import sys
import tomllib

import yaml

# The custom resources the overlays may hold, and who checks them: here, not
# kubernetes-validate (which only warns on a kind it has no schema for and passes).
CUSTOM_KINDS = {
    ("postgresql.cnpg.io/v1", "Cluster"),
    ("postgresql.cnpg.io/v1", "ScheduledBackup"),
    ("barmancloud.cnpg.io/v1", "ObjectStore"),
    ("rabbitmq.com/v1beta1", "RabbitmqCluster"),
}

# Workspace members under services/ that are libraries, not services.
NOT_SERVICES = {"runtime", "access"}
# Services that exist only outside production: the biller sandbox signs postbacks with the
# billers' secrets, so production must never run it (its manifest lives in the dev overlay).
DEV_ONLY = {"sandbox"}

DNS_1123 = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
QUANTITY = re.compile(r"^[0-9]+(\.[0-9]+)?(m|k|Ki|Mi|Gi|Ti|M|G|T)?$")


def load_docs(text: str) -> list[dict]:
    return [d for d in yaml.safe_load_all(text) if d]


# --- custom resources ------------------------------------------------------------------


def check_custom_resources(docs: list[dict]) -> list[str]:
    """Problems with the custom resources: required fields, known fields, references."""
    problems: list[str] = []
    names = {kind: set() for _, kind in CUSTOM_KINDS}
    for d in docs:
        key = (d.get("apiVersion"), d.get("kind"))
        if key in CUSTOM_KINDS:
            names[d["kind"]].add(d.get("metadata", {}).get("name"))

    def known(where: str, mapping: dict, allowed: set[str]) -> None:
        for field in sorted(set(mapping) - allowed):
            problems.append(f"{where}: unknown field {field!r}")

    for d in docs:
        key = (d.get("apiVersion"), d.get("kind"))
        if key not in CUSTOM_KINDS:
            continue
        meta = d.get("metadata") or {}
        name = meta.get("name", "")
        where = f"{d['kind']}/{name}"
        if not DNS_1123.match(name or ""):
            problems.append(f"{where}: metadata.name must be a DNS-1123 label")
        if not meta.get("namespace"):
            problems.append(f"{where}: no namespace (the overlay sets one)")
        known(where, d, {"apiVersion", "kind", "metadata", "spec"})
        spec = d.get("spec")
        if not isinstance(spec, dict):
            problems.append(f"{where}: spec is required")
            continue
        if d["kind"] == "Cluster":
            known(where + " spec", spec, {
                "instances", "imageName", "imageCatalogRef", "primaryUpdateStrategy",
                "primaryUpdateMethod", "bootstrap", "postgresql", "storage", "walStorage",
                "resources", "plugins", "backup", "monitoring", "affinity",
                "topologySpreadConstraints", "inheritedMetadata", "enableSuperuserAccess",
                "superuserSecret", "managed", "description", "minSyncReplicas",
                "maxSyncReplicas", "replicationSlots", "externalClusters", "logLevel",
                "startDelay", "stopDelay", "switchoverDelay", "failoverDelay",
                "smartShutdownTimeout", "enablePDB", "priorityClassName", "env",
                "certificates", "tablespaces", "nodeMaintenanceWindow", "postgresUID",
                "postgresGID", "serviceAccountTemplate", "projectedVolumeTemplate",
                "ephemeralVolumeSource", "ephemeralVolumesSizeLimit", "seccompProfile",
                "replica", "probes",
            })
            instances = spec.get("instances")
            if not isinstance(instances, int) or isinstance(instances, bool) or instances < 1:
                problems.append(f"{where}: spec.instances must be a whole number >= 1")
            size = (spec.get("storage") or {}).get("size")
            if not isinstance(size, str) or not QUANTITY.match(size):
                problems.append(f"{where}: spec.storage.size must be a quantity (e.g. 20Gi)")
            initdb = ((spec.get("bootstrap") or {}).get("initdb")) or {}
            for field in ("database", "owner"):
                if not initdb.get(field):
                    problems.append(f"{where}: spec.bootstrap.initdb.{field} is required")
            for param, value in ((spec.get("postgresql") or {}).get("parameters") or {}).items():
                if not isinstance(value, str):
                    problems.append(f"{where}: postgresql parameter {param} must be a string")
            for plugin in spec.get("plugins") or []:
                if not plugin.get("name"):
                    problems.append(f"{where}: a plugin without a name")
                store = (plugin.get("parameters") or {}).get("barmanObjectName")
                if store and store not in names["ObjectStore"]:
                    problems.append(f"{where}: plugin names ObjectStore {store!r}, not in the overlay")
        elif d["kind"] == "ScheduledBackup":
            known(where + " spec", spec, {
                "schedule", "cluster", "method", "pluginConfiguration", "immediate",
                "suspend", "backupOwnerReference", "target", "online", "onlineConfiguration",
            })
            schedule = spec.get("schedule", "")
            if not isinstance(schedule, str) or len(schedule.split()) != 6:
                problems.append(f"{where}: spec.schedule must have six fields (seconds first)")
            cluster = (spec.get("cluster") or {}).get("name")
            if cluster not in names["Cluster"]:
                problems.append(f"{where}: spec.cluster.name {cluster!r} is not a Cluster of the overlay")
            method = spec.get("method", "barmanObjectStore")
            if method not in {"barmanObjectStore", "volumeSnapshot", "plugin"}:
                problems.append(f"{where}: unknown spec.method {method!r}")
            if method == "plugin" and not (spec.get("pluginConfiguration") or {}).get("name"):
                problems.append(f"{where}: method plugin needs spec.pluginConfiguration.name")
        elif d["kind"] == "ObjectStore":
            known(where + " spec", spec, {"configuration", "retentionPolicy", "instanceSidecarConfiguration"})
            conf = spec.get("configuration") or {}
            path = conf.get("destinationPath", "")
            if not re.match(r"^(s3|gs)://|^https://", path or ""):
                problems.append(f"{where}: spec.configuration.destinationPath must be s3://, gs:// or https://")
            for cred in ("s3Credentials", "azureCredentials", "googleCredentials"):
                for ref_name, ref in (conf.get(cred) or {}).items():
                    if isinstance(ref, dict) and not (ref.get("name") and ref.get("key")):
                        problems.append(f"{where}: {cred}.{ref_name} needs a Secret name and key")
            retention = spec.get("retentionPolicy")
            if retention is not None and not re.match(r"^[1-9][0-9]*[dwm]$", str(retention)):
                problems.append(f"{where}: retentionPolicy must look like 30d, 4w or 3m")
        elif d["kind"] == "RabbitmqCluster":
            known(where + " spec", spec, {
                "replicas", "image", "imagePullSecrets", "service", "persistence", "resources",
                "affinity", "tolerations", "rabbitmq", "tls", "override", "skipPostDeploySteps",
                "terminationGracePeriodSeconds", "secretBackend", "delayStartSeconds",
                "autoEnableAllFeatureFlags",
            })
            replicas = spec.get("replicas", 1)
            if not isinstance(replicas, int) or isinstance(replicas, bool) or replicas < 1 or replicas % 2 == 0:
                problems.append(f"{where}: spec.replicas must be odd (1, 3, 5) for pause_minority")
            storage = (spec.get("persistence") or {}).get("storage")
            if storage is not None and not QUANTITY.match(str(storage)):
                problems.append(f"{where}: spec.persistence.storage must be a quantity")
            known(where + " spec.rabbitmq", spec.get("rabbitmq") or {}, {
                "additionalPlugins", "additionalConfig", "advancedConfig", "envConfig", "erlangInetConfig",
            })
    # Selectors in NetworkPolicies that name a Postgres cluster must name one that exists.
    def label_values(node, key: str):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == key and isinstance(v, str):
                    yield v
                else:
                    yield from label_values(v, key)
        elif isinstance(node, list):
            for v in node:
                yield from label_values(v, key)

    for d in docs:
        if d.get("kind") != "NetworkPolicy":
            continue
        for cluster in sorted(set(label_values(d["spec"], "cnpg.io/cluster"))):
            if cluster not in names["Cluster"]:
                problems.append(f"NetworkPolicy/{d['metadata']['name']}: selects cnpg.io/cluster={cluster}, no such Cluster")
    return problems


def cmd_crds(args: argparse.Namespace) -> int:
    docs = load_docs(sys.stdin.read())
    custom = [d for d in docs if (d.get("apiVersion"), d.get("kind")) in CUSTOM_KINDS]
    problems = check_custom_resources(docs)
    for p in problems:
        print(f"ERROR {args.label}: {p}", file=sys.stderr)
    kinds = sorted({f"{d['kind']}/{d['metadata']['name']}" for d in custom})
    print(f"{args.label}: custom resources checked here: {', '.join(kinds) or 'none'}", file=sys.stderr)
    yaml.safe_dump_all([d for d in docs if d not in custom], sys.stdout, sort_keys=False)
    return 1 if problems else 0


# --- coverage ----------------------------------------------------------------------------


def expected_workloads(root: str) -> dict[str, int | None]:
    """Service name -> port, from the workspace members; the gateway listens on 8080.

    The name is the ServiceDef's (`ServiceDef { name: "wallet", port: 8103, .. }`) where the
    crate declares one, else the directory's name with `_` as `-` (biller_sandbox ->
    biller-sandbox), which is also a valid Kubernetes name."""
    with open(os.path.join(root, "Cargo.toml"), "rb") as f:
        members = tomllib.load(f)["workspace"]["members"]
    found: dict[str, int | None] = {}
    for member in members:
        parts = member.strip("/").split("/")
        if len(parts) == 2 and parts[0] == "services" and parts[1] not in NOT_SERVICES:
            name, port = parts[1].replace("_", "-"), None
            for path in sorted(glob.glob(os.path.join(root, member, "src", "**", "*.rs"), recursive=True)):
                with open(path) as f:
                    m = re.search(r'ServiceDef\s*\{\s*name:\s*"([^"]+)",\s*port:\s*(\d+)', f.read())
                if m:
                    name, port = m.group(1), int(m.group(2))
                    break
            found[name] = port
        elif member.strip("/") == "gateway":
            found["gateway"] = 8080
    return found


def brands(root: str) -> list[str]:
    return sorted(
        os.path.basename(p)[: -len(".json")]
        for p in glob.glob(os.path.join(root, "config", "tenants", "*.json"))
        if os.path.basename(p) != "members-area.json"
    )


def selects(selector: dict | None, labels: dict) -> bool:
    """Whether a non-empty matchLabels selector selects pods labelled `labels`."""
    match = (selector or {}).get("matchLabels") or {}
    return bool(match) and not (selector or {}).get("matchExpressions") and all(
        labels.get(k) == v for k, v in match.items()
    )


class Checks:
    def __init__(self) -> None:
        self.passed = 0
        self.failed: list[str] = []

    def check(self, name: str, problems: list[str]) -> None:
        if problems:
            self.failed.append(name)
            print(f"FAIL {name}")
            for p in problems:
                print(f"     - {p}")
        else:
            self.passed += 1
            print(f"ok   {name}")


def workload_problems(docs: list[dict], name: str, port: int | None) -> list[str]:
    """What `name` lacks in one rendered overlay."""
    problems: list[str] = []
    of = lambda kind: [d for d in docs if d.get("kind") == kind]  # noqa: E731
    deployments = [d for d in of("Deployment") if d["metadata"]["name"] == name]
    if not deployments:
        return [f"no Deployment {name}"]
    dep = deployments[0]
    pod = dep["spec"]["template"]
    labels = pod["metadata"].get("labels") or {}
    spec = pod["spec"]
    containers = spec.get("containers") or []
    c = containers[0] if containers else {}
    command = " ".join(c.get("command", []) + c.get("args", []))
    if not re.search(rf"\bpaysite serve {re.escape(name)}$", command):
        problems.append(f"Deployment {name}: command is {command!r}, not `paysite serve {name}`")
    for probe, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")):
        got = ((c.get(probe) or {}).get("httpGet") or {}).get("path")
        if got != path:
            problems.append(f"Deployment {name}: {probe} is {got!r}, not an httpGet of {path}")
    resources = c.get("resources") or {}
    for bound in ("requests", "limits"):
        if not {"cpu", "memory"} <= set(resources.get(bound) or {}):
            problems.append(f"Deployment {name}: resources.{bound} needs cpu and memory")
    pod_sc, c_sc = spec.get("securityContext") or {}, c.get("securityContext") or {}
    if pod_sc.get("runAsNonRoot") is not True or not pod_sc.get("runAsUser"):
        problems.append(f"Deployment {name}: pod securityContext must set runAsNonRoot and a non-zero runAsUser")
    if c_sc.get("allowPrivilegeEscalation") is not False or "ALL" not in ((c_sc.get("capabilities") or {}).get("drop") or []):
        problems.append(f"Deployment {name}: container must drop ALL capabilities and disallow privilege escalation")
    env = {e["name"]: e for e in c.get("env") or []}
    for secret in ("DATABASE_URL", "AMQP_URL", "PAYSITE_SERVICE_KEY"):
        if "secretKeyRef" not in ((env.get(secret) or {}).get("valueFrom") or {}):
            problems.append(f"Deployment {name}: {secret} must come from a Secret by secretKeyRef")
    ports = [p.get("containerPort") for p in c.get("ports") or []]
    if port is not None and port not in ports:
        problems.append(f"Deployment {name}: containerPort {ports} lacks the service's port {port}")

    services = [s for s in of("Service") if s["metadata"]["name"] == name]
    if not services:
        problems.append(f"no Service {name}")
    elif not selects({"matchLabels": services[0]["spec"].get("selector")}, labels):
        problems.append(f"Service {name}: its selector does not select the Deployment's pods")
    elif port is not None and port not in [p.get("port") for p in services[0]["spec"].get("ports") or []]:
        problems.append(f"Service {name}: does not expose port {port}")

    hpas = [
        h for h in of("HorizontalPodAutoscaler")
        if h["spec"]["scaleTargetRef"].get("kind") == "Deployment" and h["spec"]["scaleTargetRef"].get("name") == name
    ]
    if not hpas:
        problems.append(f"no HorizontalPodAutoscaler for Deployment {name}")
    elif hpas[0]["apiVersion"] != "autoscaling/v2" or not any(
        m.get("type") == "Resource" and m["resource"]["name"] == "cpu" for m in hpas[0]["spec"].get("metrics") or []
    ):
        problems.append(f"HorizontalPodAutoscaler {hpas[0]['metadata']['name']}: needs autoscaling/v2 with a CPU metric")

    if not any(selects(p["spec"].get("selector"), labels) for p in of("PodDisruptionBudget")):
        problems.append(f"no PodDisruptionBudget selecting {name}'s pods")
    own = [n for n in of("NetworkPolicy") if selects(n["spec"].get("podSelector"), labels)
           and (n["spec"]["podSelector"]["matchLabels"].get("app.kubernetes.io/name") == name)]
    if not own:
        problems.append(f"no NetworkPolicy of {name}'s own (podSelector on app.kubernetes.io/name={name})")
    elif not any(n["spec"].get("ingress") for n in own):
        problems.append(f"NetworkPolicy of {name}: no ingress rule, nothing could reach it")
    return problems


def namespace_problems(root: str, overlay: str, docs: list[dict]) -> list[str]:
    problems: list[str] = []
    of = lambda kind: [d for d in docs if d.get("kind") == kind]  # noqa: E731
    if not any(
        n["spec"].get("podSelector") == {} and set(n["spec"].get("policyTypes") or []) == {"Ingress", "Egress"}
        and not n["spec"].get("ingress") and not n["spec"].get("egress")
        for n in of("NetworkPolicy")
    ):
        problems.append("no default-deny NetworkPolicy (empty podSelector, Ingress and Egress, no rules)")
    if not any(
        " ".join(c.get("command", []) + c.get("args", [])) == "paysite migrate"
        for j in of("Job") for c in j["spec"]["template"]["spec"]["containers"]
    ):
        problems.append("no Job running `paysite migrate`")
    if of("Secret"):
        problems.append("a Secret is rendered: secrets are referenced, never committed")
    # The tenants ConfigMap equals config/tenants (k8s/base/tenants is a copy).
    tenants = [m for m in of("ConfigMap") if m["metadata"]["name"].startswith("paysite-tenants")]
    want = {
        os.path.basename(p): open(p).read()
        for p in glob.glob(os.path.join(root, "config", "tenants", "*.json"))
    }
    if not tenants:
        problems.append("no paysite-tenants ConfigMap")
    elif tenants[0].get("data") != want:
        drift = sorted(set(want) ^ set(tenants[0].get("data") or {})) or sorted(
            k for k in want if tenants[0]["data"].get(k) != want[k]
        )
        problems.append(
            f"the paysite-tenants ConfigMap differs from config/tenants ({', '.join(drift)}): "
            "run scripts/check-deploy --sync-tenants"
        )
    hosts = {r.get("host") for i in of("Ingress") for r in i["spec"].get("rules") or []}
    if overlay == "prod":
        want_hosts = {f"www.{b}.com" for b in brands(root)} | {f"members.{b}.com" for b in brands(root)}
    else:
        want_hosts = {f"{b}.localhost" for b in brands(root)} | {"members.localhost"}
    if hosts != want_hosts:
        missing, extra = sorted(want_hosts - hosts), sorted(hosts - want_hosts)
        problems.append(f"Ingress hosts: missing {missing}, unexpected {extra}")
    for i in of("Ingress"):
        for r in i["spec"].get("rules") or []:
            for p in (r.get("http") or {}).get("paths") or []:
                if p["backend"].get("service", {}).get("name") != "gateway":
                    problems.append(f"Ingress {i['metadata']['name']}: {r.get('host')} goes to a backend other than the gateway")
    return problems


def compose_problems(compose: dict, name: str, port: int | None) -> list[str]:
    services = compose.get("services") or {}
    s = services.get(name)
    if not s:
        return [f"docker-compose.yml: no service {name}"]
    problems = []
    command = s.get("command")
    command = " ".join(command) if isinstance(command, list) else str(command)
    if command != f"paysite serve {name}":
        problems.append(f"docker-compose.yml {name}: command is {command!r}")
    if not (s.get("healthcheck") or {}).get("test"):
        problems.append(f"docker-compose.yml {name}: no healthcheck")
    depends = s.get("depends_on") or {}
    if not isinstance(depends, dict) or (depends.get("migrate") or {}).get("condition") != "service_completed_successfully":
        problems.append(f"docker-compose.yml {name}: must depend on migrate with service_completed_successfully")
    addr = str((s.get("environment") or {}).get("PAYSITE_ADDR", ""))
    if port is not None and not addr.endswith(f":{port}"):
        problems.append(f"docker-compose.yml {name}: PAYSITE_ADDR {addr!r} is not on port {port}")
    return problems


def compose_stack_problems(compose: dict) -> list[str]:
    services = compose.get("services") or {}
    problems = []
    for needed in ("postgres", "rabbitmq", "jaeger", "migrate", "gateway"):
        if needed not in services:
            problems.append(f"docker-compose.yml: no {needed}")
    if (services.get("migrate") or {}).get("command") != ["paysite", "migrate"]:
        problems.append("docker-compose.yml migrate: command must be paysite migrate")
    for backing in ("postgres", "rabbitmq"):
        if not (services.get(backing) or {}).get("healthcheck"):
            problems.append(f"docker-compose.yml {backing}: no healthcheck")
    if "8080:8080" not in [str(p) for p in (services.get("gateway") or {}).get("ports") or []]:
        problems.append("docker-compose.yml gateway: must publish 8080:8080")
    return problems


def dockerfile_problems(root: str) -> list[str]:
    text = open(os.path.join(root, "Dockerfile")).read()
    problems = []
    users = re.findall(r"^USER\s+(\S+)", text, re.M)
    if not users or users[-1].split(":")[0] in {"0", "root"}:
        problems.append("Dockerfile: the last stage must run as a non-root USER")
    for needed in ("npm ci", "npm run build", "cargo build --release --locked -p paysite", "frontend/dist", "config/"):
        if needed not in text:
            problems.append(f"Dockerfile: expected {needed!r}")
    return problems


def run_coverage(root: str, overlays: dict[str, list[dict]], compose: dict, checks: Checks) -> None:
    workloads = expected_workloads(root)
    for overlay, docs in overlays.items():
        for name, port in workloads.items():
            if overlay == "prod" and name in DEV_ONLY:
                checks.check(f"prod: {name} is not deployed (development only)",
                             [f"prod: {name} must not be deployed"] if workload_problems(docs, name, port) == []
                             else [])
                continue
            checks.check(f"{overlay}: {name} has Deployment (probes), Service, HPA, PDB, NetworkPolicy",
                         workload_problems(docs, name, port))
        checks.check(f"{overlay}: default deny, migration Job, tenants ConfigMap, Ingress hosts",
                     namespace_problems(root, overlay, docs))
    for name, port in workloads.items():
        checks.check(f"compose: {name} has a block (command, healthcheck, depends_on migrate)",
                     compose_problems(compose, name, port))
    checks.check("compose: postgres, rabbitmq, jaeger, migrate, gateway on 8080", compose_stack_problems(compose))
    checks.check("Dockerfile: SPA and paysite stages, non-root runtime", dockerfile_problems(root))


def self_test(root: str, overlays: dict[str, list[dict]], compose: dict, checks: Checks) -> None:
    """The check notices a missing piece: remove each in a scratch copy, expect a failure."""
    workloads = expected_workloads(root)
    name = sorted(n for n in workloads if n != "gateway")[0] if len(workloads) > 1 else "gateway"
    overlay = "prod" if "prod" in overlays else sorted(overlays)[0]
    docs = overlays[overlay]

    def without(kind: str) -> list[dict]:
        kept = []
        for d in docs:
            labels = (d.get("metadata") or {}).get("labels") or {}
            if d.get("kind") == kind and (
                d["metadata"]["name"] == name or labels.get("app.kubernetes.io/name") == name
            ):
                continue
            kept.append(d)
        return kept

    for kind in ("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "NetworkPolicy"):
        problems = workload_problems(without(kind), name, workloads[name])
        checks.check(f"self-test: {overlay} without {name}'s {kind} fails",
                     [] if problems else [f"removing {kind} {name} went unnoticed"])
    for probe in ("readinessProbe", "livenessProbe"):
        mutated = copy.deepcopy(docs)
        for d in mutated:
            if d.get("kind") == "Deployment" and d["metadata"]["name"] == name:
                d["spec"]["template"]["spec"]["containers"][0].pop(probe, None)
        problems = workload_problems(mutated, name, workloads[name])
        checks.check(f"self-test: {overlay} without {name}'s {probe} fails",
                     [] if problems else [f"removing the {probe} went unnoticed"])
    scratch = copy.deepcopy(compose)
    scratch["services"].pop(name, None)
    checks.check(f"self-test: compose without {name} fails",
                 [] if compose_problems(scratch, name, workloads[name]) else ["removing the block went unnoticed"])
    # A new service crate with nothing deployed for it is noticed too.
    fake = workload_problems(docs, "newservice", None) + compose_problems(compose, "newservice", None)
    checks.check("self-test: a service with no manifests fails", [] if fake else ["went unnoticed"])
    # Drifted tenants are noticed.
    mutated = copy.deepcopy(docs)
    for d in mutated:
        if d.get("kind") == "ConfigMap" and d["metadata"]["name"].startswith("paysite-tenants"):
            d["data"].pop(sorted(d["data"])[0])
    checks.check("self-test: a tenants ConfigMap missing a brand fails",
                 [] if namespace_problems(root, overlay, mutated) else ["went unnoticed"])
    # And a custom resource missing a required field.
    mutated = copy.deepcopy(docs)
    for d in mutated:
        if d.get("kind") == "Cluster":
            d["spec"].pop("instances", None)
    checks.check("self-test: a CNPG Cluster without instances fails",
                 [] if check_custom_resources(mutated) else ["went unnoticed"])


def cmd_coverage(args: argparse.Namespace) -> int:
    overlays = {}
    for item in args.overlay:
        label, _, path = item.partition("=")
        with open(path) as f:
            overlays[label] = load_docs(f.read())
    with open(os.path.join(args.root, "docker-compose.yml")) as f:
        compose = yaml.safe_load(f)
    checks = Checks()
    print("workloads from Cargo.toml: " + json.dumps(expected_workloads(args.root)))
    run_coverage(args.root, overlays, compose, checks)
    self_test(args.root, overlays, compose, checks)
    print(f"deploy: {checks.passed} passed, {len(checks.failed)} failed")
    return 1 if checks.failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    crds = sub.add_parser("crds")
    crds.add_argument("label")
    crds.set_defaults(run=cmd_crds)
    coverage = sub.add_parser("coverage")
    coverage.add_argument("--root", required=True)
    coverage.add_argument("--overlay", action="append", required=True, help="NAME=rendered.yaml")
    coverage.set_defaults(run=cmd_coverage)
    args = parser.parse_args()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
