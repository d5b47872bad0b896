#!/usr/bin/env python3
"""Checks of the deployment files that need more than a schema; run by scripts/check-deploy.

    check_deploy.py crds LABEL < rendered.yaml > core.yaml
        Checks the custom resources of a rendered overlay (kubernetes-validate has no
        schemas for them) and writes every other document to stdout, for
        `kubernetes-validate --strict`. Fails on a custom resource of a kind not allowed.

    check_deploy.py coverage --root ROOT --overlay NAME=rendered.yaml ...
        Every service crate of the workspace (members services/<name> but runtime, tenants,
        access and demo-media; the contracts, services/<name>/contract, are libraries), and the gateway, has in each rendered overlay a Deployment (command
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
    ("monitoring.coreos.com/v1", "PodMonitor"),
    ("monitoring.coreos.com/v1", "PrometheusRule"),
    ("cert-manager.io/v1", "Issuer"),
    ("cert-manager.io/v1", "Certificate"),
}

# The alerts the issue asks for (relay lag, DLQ depth, consumer restarts, error rate), by name.
REQUIRED_ALERTS = {"PaysiteRelayLagging", "PaysiteBrokerUnreachable", "PaysiteDeadLetters",
                   "PaysiteConsumerRestarts", "PaysiteHttpErrorRate", "PaysiteConsumerLagging",
                   "PaysiteQueueBacklog", "PaysitePodsUnready", "PaysitePostbacksRejected",
                   "PaysiteCertificateExpiring", "PaysiteEventsDeferred"}


def doc_anchors(path: str) -> set[str]:
    """The anchors of a Markdown file's headings, as GitHub makes them."""
    anchors = set()
    for line in open(path):
        m = re.match(r"^#+\s+(.*?)\s*$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            anchors.add(slug)
    return anchors


def runbook_problems(root: str, docs: list[dict]) -> list[str]:
    """Every alert's `runbook` annotation names a section of docs/operations.md."""
    problems = []
    anchors = doc_anchors(os.path.join(root, "docs", "operations.md"))
    for m in docs:
        if m.get("kind") != "PrometheusRule":
            continue
        for g in m["spec"].get("groups") or []:
            for r in g.get("rules") or []:
                if "alert" not in r:
                    continue
                runbook = (r.get("annotations") or {}).get("runbook", "")
                page, _, anchor = runbook.partition("#")
                if page != "docs/operations.md" or anchor not in anchors:
                    problems.append(f"alert {r['alert']}: runbook {runbook!r} is not a section of docs/operations.md")
    return problems

# The operations routes (/healthz, /readyz, /metrics) listen 1000 above a process's port
# (runtime::service::ops_port), on the container port named `ops`.
OPS_OFFSET = 1000

# Workspace members under services/ that are libraries, not services.
NOT_SERVICES = {"runtime", "access", "tenants", "demo-media"}
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
        elif d["kind"] == "PodMonitor":
            known(where + " spec", spec, {
                "selector", "podMetricsEndpoints", "namespaceSelector", "jobLabel", "podTargetLabels",
                "sampleLimit", "targetLimit", "labelLimit", "labelNameLengthLimit", "labelValueLengthLimit",
                "attachMetadata", "scrapeProtocols", "scrapeClass",
            })
            if not (spec.get("selector") or {}).get("matchLabels"):
                problems.append(f"{where}: spec.selector.matchLabels is required")
            endpoints = spec.get("podMetricsEndpoints") or []
            if not endpoints:
                problems.append(f"{where}: spec.podMetricsEndpoints is required")
            match = (spec.get("selector") or {}).get("matchLabels") or {}
            for e in endpoints:
                if e.get("path", "/metrics") != "/metrics":
                    problems.append(f"{where}: scrapes path {e.get('path')!r}, not /metrics")
                if match.get("app.kubernetes.io/name") == "paysite-mq":
                    # RabbitMQ's own endpoint: 15692 plain, 15691 (https) with TLS on.
                    if e.get("port") not in ("prometheus", "prometheus-tls"):
                        problems.append(f"{where}: scrapes port {e.get('port')!r}, not the broker's prometheus port")
                    if e.get("port") == "prometheus-tls" and e.get("scheme") != "https":
                        problems.append(f"{where}: the broker's prometheus-tls port needs scheme https")
                elif "cnpg.io/cluster" in match:
                    if e.get("port") != "metrics":
                        problems.append(f"{where}: scrapes port {e.get('port')!r}, not the instances' exporter (metrics)")
                elif e.get("port") != "ops":
                    problems.append(f"{where}: scrapes port {e.get('port')!r}, not /metrics on ops")
        elif d["kind"] == "PrometheusRule":
            known(where + " spec", spec, {"groups"})
            for g in spec.get("groups") or []:
                known(where + " group", g, {"name", "rules", "interval", "limit", "partial_response_strategy",
                                            "query_offset", "labels"})
                if not g.get("name"):
                    problems.append(f"{where}: a group without a name")
                for r in g.get("rules") or []:
                    known(where + " rule", r, {"alert", "record", "expr", "for", "keep_firing_for", "labels",
                                               "annotations"})
                    if bool(r.get("alert")) == bool(r.get("record")) or not str(r.get("expr", "")).strip():
                        problems.append(f"{where}: rule {r.get('alert') or r.get('record')!r} needs alert or record, and expr")
                    if r.get("for") is not None and not re.fullmatch(r"([0-9]+(ms|s|m|h|d|w|y))+", str(r["for"])):
                        problems.append(f"{where}: rule {r.get('alert')!r}: `for` {r['for']!r} is not a duration")
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


SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas")


def schema_problems(docs: list[dict]) -> list[str]:
    """Each custom resource against its vendored schema (deploy/schemas/<group>_<version>_<Kind>.json)."""
    import jsonschema  # installed with check-jsonschema

    problems: list[str] = []
    for d in docs:
        key = (d.get("apiVersion"), d.get("kind"))
        if key not in CUSTOM_KINDS:
            continue
        where = f"{d['kind']}/{(d.get('metadata') or {}).get('name')}"
        path = os.path.join(SCHEMAS, f"{key[0].replace('/', '_')}_{key[1]}.json")
        if not os.path.exists(path):
            problems.append(f"{where}: no schema {os.path.relpath(path)}")
            continue
        with open(path) as f:
            validator = jsonschema.Draft202012Validator(json.load(f))
        for error in sorted(validator.iter_errors(d), key=lambda e: list(e.absolute_path)):
            at = ".".join(str(p) for p in error.absolute_path) or "(top)"
            problems.append(f"{where}: {at}: {error.message}")
    return problems


def cmd_crds(args: argparse.Namespace) -> int:
    docs = load_docs(sys.stdin.read())
    custom = [d for d in docs if (d.get("apiVersion"), d.get("kind")) in CUSTOM_KINDS]
    problems = check_custom_resources(docs) + schema_problems(docs)
    for p in problems:
        print(f"ERROR {args.label}: {p}", file=sys.stderr)
    kinds = sorted({f"{d['kind']}/{d['metadata']['name']}" for d in custom})
    print(f"{args.label}: custom resources checked against deploy/schemas and here: {', '.join(kinds) or 'none'}",
          file=sys.stderr)
    yaml.safe_dump_all([d for d in docs if d not in custom], sys.stdout, sort_keys=False)
    return 1 if problems else 0


# --- coverage ----------------------------------------------------------------------------


def expected_workloads(root: str) -> dict[str, int | None]:
    """Service name -> port, from the workspace members; the gateway listens on 8080.

    The name is the ServiceDef's (`ServiceDef { name: "wallet", port: 8103, .. }`, or
    `port: api::PORT` with the number in its contract's api.rs) where the crate declares one, else the directory's name with `_` as `-` (biller_sandbox ->
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
                    m = re.search(r'ServiceDef\s*\{\s*name:\s*"([^"]+)",\s*port:\s*(\d+|api::PORT)', f.read())
                if m:
                    name, port = m.group(1), m.group(2)
                    if port == "api::PORT":
                        # The port is the service's contract's (`pub const PORT: u16 = 8103;`).
                        with open(os.path.join(root, member, "contract", "src", "api.rs")) as c:
                            port = re.search(r"pub const PORT: u16 = (\d+);", c.read()).group(1)
                    port = int(port)
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


def matches(selector: dict | None, labels: dict) -> bool:
    """Whether a label selector (matchLabels and matchExpressions) selects pods labelled
    `labels`; an empty selector selects every pod."""
    selector = selector or {}
    if any(labels.get(k) != v for k, v in (selector.get("matchLabels") or {}).items()):
        return False
    for e in selector.get("matchExpressions") or []:
        key, op, values = e.get("key"), e.get("operator"), e.get("values") or []
        ok = {"In": labels.get(key) in values, "NotIn": labels.get(key) not in values,
              "Exists": key in labels, "DoesNotExist": key not in labels}.get(op, False)
        if not ok:
            return False
    return True


def egress_ports(docs: list[dict], labels: dict) -> set:
    """The ports the NetworkPolicies open for egress from pods labelled `labels` (`any` when a
    rule names no port)."""
    ports = set()
    for d in docs:
        if d.get("kind") != "NetworkPolicy" or not matches(d["spec"].get("podSelector"), labels):
            continue
        for rule in d["spec"].get("egress") or []:
            if not rule.get("ports"):
                ports.add("any")
            for p in rule.get("ports") or []:
                ports.add(p.get("port"))
    return ports


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


def secret_file_problems(where: str, spec: dict, c: dict, secret: str) -> list[str]:
    """`<secret>_FILE` names a file of a Secret volume the container mounts, holding that key;
    or a directory of `PAYSITE_SECRETS_DIR` is such a volume's mount (its files are named
    after their variables)."""
    env = {e["name"]: e.get("value") for e in c.get("env") or []}
    path = env.get(f"{secret}_FILE")
    volumes = {v["name"]: v["secret"] for v in spec.get("volumes") or [] if v.get("secret")}
    if not path:
        dirs = [d.rstrip("/") for d in (env.get("PAYSITE_SECRETS_DIR") or "").split(":") if d]
        for m in c.get("volumeMounts") or []:
            if m.get("name") in volumes and m["mountPath"].rstrip("/") in dirs:
                items = volumes[m["name"]].get("items")
                if not items or secret in {i.get("path") for i in items}:
                    return []
        return [f"{where}: neither {secret}_FILE nor a PAYSITE_SECRETS_DIR directory gives {secret} "
                "(secrets are mounted as files)"]
    for m in c.get("volumeMounts") or []:
        mount = m["mountPath"].rstrip("/") + "/"
        if m.get("name") in volumes and path.startswith(mount):
            key = path[len(mount):]
            items = volumes[m["name"]].get("items")
            if items and key not in {i.get("path") for i in items}:
                return [f"{where}: {secret}_FILE {path}: the volume {m['name']} has no item {key}"]
            return []
    return [f"{where}: {secret}_FILE {path} is not in a mounted Secret volume"]


def database_role_problems(docs: list[dict], services: list[str]) -> list[str]:
    """Each service connects as a role of its own: the Cluster declares `paysite_<service>`
    (login, no other power) with its password in `paysite-db-<service>`; the service's pods
    get that Secret's `url` as DATABASE_URL and no other service's; the migration Job gets
    every role's `url` as DATABASE_URL_<SERVICE>."""
    problems: list[str] = []
    clusters = [d for d in docs if d.get("kind") == "Cluster" and d["metadata"]["name"] == "paysite-db"]
    for cluster in clusters:
        roles = {r.get("name"): r for r in ((cluster["spec"].get("managed") or {}).get("roles") or [])}
        for svc in services:
            role = roles.get(f"paysite_{svc}")
            if role is None:
                problems.append(f"Cluster paysite-db: no managed role paysite_{svc} for the {svc} service")
                continue
            if role.get("login") is not True or (role.get("passwordSecret") or {}).get("name") != f"paysite-db-{svc}":
                problems.append(f"Cluster paysite-db: role paysite_{svc} needs login: true and passwordSecret "
                                f"paysite-db-{svc}")
            powers = [k for k in ("superuser", "createdb", "createrole", "replication", "bypassrls") if role.get(k)]
            if powers or role.get("inRoles"):
                problems.append(f"Cluster paysite-db: role paysite_{svc} must have no other power ({powers}, "
                                f"inRoles {role.get('inRoles')})")
    for d in docs:
        if d.get("kind") not in ("Deployment", "Job"):
            continue
        name, spec = d["metadata"]["name"], d["spec"]["template"]["spec"]
        c = (spec.get("containers") or [{}])[0]
        env = {e["name"]: e.get("value") for e in c.get("env") or []}
        mounts = {m["name"]: m["mountPath"].rstrip("/") for m in c.get("volumeMounts") or []}
        volumes = {v["name"]: v for v in spec.get("volumes") or []}
        role_secrets = set()
        for v in volumes.values():
            for src in [v] + list((v.get("projected") or {}).get("sources") or []):
                secret = src.get("secret") or {}
                secret_name = secret.get("secretName") or secret.get("name") or ""
                if secret_name.startswith("paysite-db-") and secret_name.removeprefix("paysite-db-") in services:
                    role_secrets.add(secret_name)
        if d.get("kind") == "Deployment" and name in services:
            path = env.get("DATABASE_URL_FILE") or ""
            given = [v["secret"]["secretName"] for n, v in volumes.items() if v.get("secret") and n in mounts
                     and path == f"{mounts[n]}/url" and "url" in {i.get("key") for i in v["secret"].get("items") or []}]
            if given != [f"paysite-db-{name}"]:
                problems.append(f"Deployment {name}: DATABASE_URL_FILE must be the `url` of paysite-db-{name} (its own "
                                f"role), not {path!r} of {given}")
            if role_secrets - {f"paysite-db-{name}"}:
                problems.append(f"Deployment {name}: mounts another service's role: {sorted(role_secrets - {f'paysite-db-{name}'})}")
        elif d.get("kind") == "Job":
            dirs = [x.rstrip("/") for x in (env.get("PAYSITE_SECRETS_DIR") or "").split(":") if x]
            given = {}
            for n, v in volumes.items():
                if mounts.get(n) not in dirs:
                    continue
                for src in [v] + list((v.get("projected") or {}).get("sources") or []):
                    secret = src.get("secret") or {}
                    for item in secret.get("items") or []:
                        given[item.get("path")] = (secret.get("secretName") or secret.get("name"), item.get("key"))
            for svc in services:
                if given.get(f"DATABASE_URL_{svc.upper()}") != (f"paysite-db-{svc}", "url"):
                    problems.append(f"Job {name}: DATABASE_URL_{svc.upper()} must be the `url` of paysite-db-{svc}, in "
                                    f"a PAYSITE_SECRETS_DIR directory (it migrates each schema as its service's role)")
        elif role_secrets:
            problems.append(f"{d['kind']} {name}: mounts a service's database role {sorted(role_secrets)}")
    return problems


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
    for probe, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz"), ("startupProbe", "/healthz")):
        get = (c.get(probe) or {}).get("httpGet") or {}
        if get.get("path") != path or get.get("port") != "ops":
            problems.append(f"Deployment {name}: {probe} is {get!r}, not an httpGet of {path} on port ops")
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
    # The gateway keeps no state: no database URL, and no way to the database. Secrets come
    # as files of mounted Secret volumes (`<NAME>_FILE`), never as environment variables.
    secrets = ("AMQP_URL", "PAYSITE_SERVICE_KEY") if name == "gateway" else ("DATABASE_URL", "AMQP_URL", "PAYSITE_SERVICE_KEY")
    for secret in secrets:
        problems.extend(secret_file_problems(f"Deployment {name}", spec, c, secret))
    for e in c.get("env") or []:
        if "secretKeyRef" in (e.get("valueFrom") or {}):
            problems.append(f"Deployment {name}: {e['name']} comes from a Secret as an environment variable; mount it as a file")
    for src in c.get("envFrom") or []:
        if "secretRef" in src:
            problems.append(f"Deployment {name}: envFrom a Secret ({src['secretRef'].get('name')}); mount it as files")
    if name == "gateway":
        if {"DATABASE_URL", "DATABASE_URL_FILE"} & set(env) or any("DATABASE_URL" in str(src) for src in c.get("envFrom") or []):
            problems.append("Deployment gateway: must not be given DATABASE_URL (it keeps no state)")
        opened = egress_ports(docs, labels)
        if 5432 in opened or "any" in opened:
            problems.append("NetworkPolicy: the gateway's pods may reach PostgreSQL (5432): they need no database")
    ports = [p.get("containerPort") for p in c.get("ports") or []]
    if port is not None and port not in ports:
        problems.append(f"Deployment {name}: containerPort {ports} lacks the service's port {port}")
    named = {p.get("name"): p.get("containerPort") for p in c.get("ports") or []}
    ops_addr = str((env.get("PAYSITE_OPS_ADDR") or {}).get("value", ""))
    if port is not None and (named.get("ops") != port + OPS_OFFSET or ops_addr != f"0.0.0.0:{port + OPS_OFFSET}"):
        problems.append(
            f"Deployment {name}: the operations routes need containerPort `ops` {port + OPS_OFFSET} and "
            f"PAYSITE_OPS_ADDR 0.0.0.0:{port + OPS_OFFSET} (have {named.get('ops')!r}, {ops_addr!r})"
        )

    services = [s for s in of("Service") if s["metadata"]["name"] == name]
    if not services:
        problems.append(f"no Service {name}")
    elif not selects({"matchLabels": services[0]["spec"].get("selector")}, labels):
        problems.append(f"Service {name}: its selector does not select the Deployment's pods")
    elif port is not None and port not in [p.get("port") for p in services[0]["spec"].get("ports") or []]:
        problems.append(f"Service {name}: does not expose port {port}")
    elif any(p.get("targetPort") == "ops" or p.get("port") == (port or 0) + OPS_OFFSET
             for p in services[0]["spec"].get("ports") or []):
        problems.append(f"Service {name}: exposes the operations port; only the probes and the scrape reach it")

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


def emitted_metrics(root: str) -> set[str]:
    """Every `paysite_*` metric name written in a counter!/gauge!/histogram! of the sources."""
    names = set()
    for path in glob.glob(os.path.join(root, "**", "src", "**", "*.rs"), recursive=True):
        if "/target/" in path or "/node_modules/" in path:
            continue
        names.update(re.findall(r'(?:counter|gauge|histogram)!\(\s*"(paysite_[a-z_]+)"', open(path).read()))
    return names


def namespace_problems(root: str, overlay: str, docs: list[dict]) -> list[str]:
    problems: list[str] = []
    of = lambda kind: [d for d in docs if d.get("kind") == kind]  # noqa: E731
    if not any(
        n["spec"].get("podSelector") == {} and set(n["spec"].get("policyTypes") or []) == {"Ingress", "Egress"}
        and not n["spec"].get("ingress") and not n["spec"].get("egress")
        for n in of("NetworkPolicy")
    ):
        problems.append("no default-deny NetworkPolicy (empty podSelector, Ingress and Egress, no rules)")
    migrations = [j for j in of("Job") for c in j["spec"]["template"]["spec"]["containers"]
                  if " ".join(c.get("command", []) + c.get("args", [])) == "paysite migrate"]
    if not migrations:
        problems.append("no Job running `paysite migrate`")
    for j in migrations:
        image = j["spec"]["template"]["spec"]["containers"][0].get("image", "")
        tag = image.rsplit(":", 1)[1] if ":" in image.rsplit("/", 1)[-1] else ""
        name = j["metadata"]["name"]
        if not tag or name != f"paysite-migrate-{tag}":
            problems.append(f"Job {name}: a release's migration Job is named after its image tag "
                            f"(paysite-migrate-<tag>), here {image!r}; a fixed name must be deleted by hand each release")
        elif len(name) > 63 or not re.fullmatch(r"[a-z0-9]([-a-z0-9.]*[a-z0-9])?", name):
            problems.append(f"Job {name}: the tag makes no valid Job name (lower-case, digits, '-', '.', 63 at most)")
    if of("Secret"):
        problems.append("a Secret is rendered: secrets are referenced, never committed")
    if not any(
        (m["spec"].get("selector") or {}).get("matchLabels") == {"app.kubernetes.io/part-of": "paysite"}
        and any(e.get("port") == "ops" for e in m["spec"].get("podMetricsEndpoints") or [])
        for m in of("PodMonitor")
    ):
        problems.append("no PodMonitor scraping the `ops` port of every paysite pod")
    # The broker and the database are scraped too: the queue-depth and consumer alerts read
    # the broker's per-queue metrics.
    monitored = {(m["spec"].get("selector") or {}).get("matchLabels", {}).get("app.kubernetes.io/name")
                 or ("paysite-db" if "cnpg.io/cluster" in (m["spec"].get("selector") or {}).get("matchLabels", {}) else None)
                 for m in of("PodMonitor")}
    for backing in ("paysite-mq", "paysite-db"):
        if backing not in monitored:
            problems.append(f"no PodMonitor scraping {backing}")
    for mq in of("RabbitmqCluster"):
        config = ((mq["spec"].get("rabbitmq") or {}).get("additionalConfig") or "")
        if not re.search(r"^\s*prometheus\.return_per_object_metrics\s*=\s*true\s*$", config, re.M):
            problems.append(f"RabbitmqCluster {mq['metadata']['name']}: prometheus.return_per_object_metrics = true "
                            "is needed for the per-queue metrics")
    alerts = {r.get("alert") for m in of("PrometheusRule") for g in m["spec"].get("groups") or []
              for r in g.get("rules") or []}
    if REQUIRED_ALERTS - alerts:
        problems.append(f"PrometheusRule: missing alerts {sorted(REQUIRED_ALERTS - alerts)}")
    problems.extend(runbook_problems(root, docs))
    emitted = emitted_metrics(root)
    for m in of("PrometheusRule"):
        for g in m["spec"].get("groups") or []:
            for r in g.get("rules") or []:
                for metric in re.findall(r"\b(paysite_[a-z_]+)", str(r.get("expr", ""))):
                    base = re.sub(r"_(bucket|count|sum)$", "", metric)
                    if base not in emitted:
                        problems.append(f"PrometheusRule {r.get('alert')}: {metric} is not a metric the code emits")
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
        # The sandbox's payment pages are opened by browsers (PAYSITE_SANDBOX_URL).
        want_hosts = {f"{b}.localhost" for b in brands(root)} | {"members.localhost", "sandbox.localhost"}
    if hosts != want_hosts:
        missing, extra = sorted(want_hosts - hosts), sorted(hosts - want_hosts)
        problems.append(f"Ingress hosts: missing {missing}, unexpected {extra}")
    for i in of("Ingress"):
        for r in i["spec"].get("rules") or []:
            for p in (r.get("http") or {}).get("paths") or []:
                want = "sandbox" if r.get("host") == "sandbox.localhost" else "gateway"
                if p["backend"].get("service", {}).get("name") != want:
                    problems.append(f"Ingress {i['metadata']['name']}: {r.get('host')} goes to a backend other than {want}")
    return problems


# --- secrets: the names docs/operations.md gives --------------------------------------------


def documented_secrets(root: str) -> dict[str, set[str]]:
    """Secret name -> the keys its row names, from the table under `### Secrets` in
    docs/operations.md (a key with `<NAME>` in it stands for any word there)."""
    text = open(os.path.join(root, "docs", "operations.md")).read()
    section = text.split("### Secrets", 1)[1].split("\n#", 1)[0]
    found: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`"):
            continue
        name = re.match(r"`([a-z0-9-]+(?:<service>)?)`", cells[0])
        if name:
            # Variable-like keys (`DATABASE_URL`), file-like ones (`ca.crt`) and a basic-auth
            # Secret's (`username`, `password`, `url`).
            found[name.group(1)] = set(re.findall(r"`([A-Z][A-Z0-9_<>]*|[a-z]+\.[a-z]+|username|password|url)`",
                                                  cells[1]))
    return found


def documented_name(name: str, documented: dict[str, set[str]]) -> str | None:
    """The row of docs/operations.md's table naming the Secret `name`: its own, or a row for one
    per service (`paysite-db-<service>`)."""
    if name in documented:
        return name
    for row in documented:
        if "<service>" in row and re.fullmatch(re.escape(row).replace(re.escape("<service>"), "[a-z]+"), name):
            return row
    return None


def key_documented(key: str, keys: set[str]) -> bool:
    return any(re.fullmatch(re.escape(k).replace(re.escape("<NAME>"), "[A-Z0-9]+"), key) for k in keys)


def referenced_secrets(docs: list[dict]) -> list[tuple[str, str | None, str]]:
    """(secret, key or None for every key, where) for each reference in the rendered objects."""
    refs: list[tuple[str, str | None, str]] = []

    def walk(node, where: str) -> None:
        if isinstance(node, dict):
            ref = node.get("secretKeyRef")
            if isinstance(ref, dict):
                refs.append((ref.get("name"), ref.get("key"), where))
            ref = node.get("secretRef")
            if isinstance(ref, dict) and "key" not in ref:
                refs.append((ref.get("name"), None, where))
            secret = node.get("secret")
            if isinstance(secret, dict) and (secret.get("secretName") or secret.get("name")):
                # A Secret volume (secretName), or a projected volume's source (name).
                items = [i.get("key") for i in secret.get("items") or []]
                for key in items or [None]:
                    refs.append((secret.get("secretName") or secret.get("name"), key, where))
            for v in node.values():
                walk(v, where)
        elif isinstance(node, list):
            for v in node:
                walk(v, where)

    for d in docs:
        where = f"{d.get('kind')}/{(d.get('metadata') or {}).get('name')}"
        if d.get("kind") in ("Deployment", "Job", "StatefulSet", "CronJob"):
            walk(d.get("spec"), where)
        elif d.get("kind") == "RabbitmqCluster":
            secret = ((d.get("spec") or {}).get("tls") or {}).get("secretName")
            if secret:
                refs.append((secret, None, where))
        elif d.get("kind") == "Certificate":
            refs.append(((d.get("spec") or {}).get("secretName"), None, where))
        elif d.get("kind") == "Issuer":
            secret = ((d.get("spec") or {}).get("ca") or {}).get("secretName")
            if secret:
                refs.append((secret, None, where))
        elif d.get("kind") == "ObjectStore":
            for cred in ((d.get("spec") or {}).get("configuration") or {}).get("s3Credentials", {}).values():
                if isinstance(cred, dict) and cred.get("name"):
                    refs.append((cred["name"], cred.get("key"), where))
    return refs


def secret_problems(documented: dict[str, set[str]], overlays: dict[str, list[dict]]) -> list[str]:
    problems: list[str] = []
    used: set[str] = set()
    for overlay, docs in overlays.items():
        for name, key, where in referenced_secrets(docs):
            row = documented_name(name, documented)
            if row is None:
                problems.append(f"{overlay} {where}: reads the Secret {name!r}, which docs/operations.md does not name "
                                f"(it names {', '.join(sorted(documented))})")
                continue
            used.add(row)
            if key is not None and not key_documented(key, documented[row]):
                problems.append(f"{overlay} {where}: reads key {key!r} of {name!r}, not in docs/operations.md's row")
    for name in sorted(set(documented) - used):
        problems.append(f"docs/operations.md names the Secret {name!r}, which no manifest reads")
    return problems


# --- URLs: every one a flow needs, set where it runs --------------------------------------

# Read by the named crates' own code (a literal in their sources): required in their processes.
READ_BY_SOURCE = ("PAYSITE_BRAND_ORIGIN", "PAYSITE_MEMBERS_ORIGIN", "UNLOCKS_MEDIA_BASE_URL", "PAYSITE_SANDBOX_URL")
# Handed to a browser: must be reachable from one (an Ingress host, a published port, https).
BROWSER_FACING = {"PAYSITE_SANDBOX_URL"}
CRATE_DIRS = {"gateway": "gateway", "sandbox": "services/biller-sandbox"}


def url_keys(root: str) -> set[str]:
    """`PAYSITE_<NAME>_URL` for every service another process finds by name
    (`service_url("wallet", ..)`, `service_url_from(&lookup, "wallet", ..)`, `base("payments", ..)`)."""
    keys = set()
    for path in (
        glob.glob(os.path.join(root, "services", "*", "src", "**", "*.rs"), recursive=True)
        + glob.glob(os.path.join(root, "services", "*", "contract", "src", "**", "*.rs"), recursive=True)
        + glob.glob(os.path.join(root, "gateway", "src", "**", "*.rs"), recursive=True)
    ):
        text = open(path).read()
        for name in re.findall(r'(?:service_url(?:_from)?\([^"()]*|\bbase\()"([a-z-]+)"', text):
            keys.add(f"PAYSITE_{name.upper().replace('-', '_')}_URL")
    return keys


def source_readers(root: str, workloads: dict) -> dict[str, set[str]]:
    """Key -> the processes whose crate names it in its sources."""
    readers: dict[str, set[str]] = {k: set() for k in READ_BY_SOURCE}
    for name in workloads:
        folder = os.path.join(root, CRATE_DIRS.get(name, f"services/{name}"), "src")
        text = "".join(open(p).read() for p in glob.glob(os.path.join(folder, "**", "*.rs"), recursive=True))
        for key in READ_BY_SOURCE:
            if f'"{key}"' in text:
                readers[key].add(name)
    return readers


def effective_env(docs: list[dict], deployment: dict) -> dict[str, str | None]:
    """The container's environment: its env entries (None for a value from a Secret) over
    the ConfigMaps it takes whole."""
    maps = {d["metadata"]["name"]: d.get("data") or {} for d in docs if d.get("kind") == "ConfigMap"}
    c = deployment["spec"]["template"]["spec"]["containers"][0]
    env: dict[str, str | None] = {}
    for src in c.get("envFrom") or []:
        env.update(maps.get((src.get("configMapRef") or {}).get("name"), {}))
    for e in c.get("env") or []:
        env[e["name"]] = e.get("value")
    return env


def url_problems(root: str, overlays: dict[str, list[dict]], compose: dict) -> list[str]:
    workloads = expected_workloads(root)
    keys, readers = url_keys(root), source_readers(root, workloads)
    problems: list[str] = []

    def check_value(where: str, key: str, value: str | None, internal: dict[str, int], public_hosts: set[str],
                    published: set[int]) -> None:
        if not value:
            problems.append(f"{where}: {key} is not set")
            return
        if key == "UNLOCKS_MEDIA_BASE_URL":
            if not value.startswith("/") and not value.startswith("https://"):
                problems.append(f"{where}: {key} {value!r} must be a path on the brand hosts or an https URL")
            return
        m = re.match(r"^(https?)://([^/:]+)(?::(\d+))?/?$", value)
        if not m:
            problems.append(f"{where}: {key} {value!r} is not a URL")
            return
        scheme, host, port = m.group(1), m.group(2), int(m.group(3)) if m.group(3) else None
        if key in BROWSER_FACING or key.endswith("_ORIGIN"):
            pattern = re.escape(host).replace(re.escape("{brand}"), "[a-z0-9-]+")
            loopback = host in ("127.0.0.1", "localhost") or host.endswith(".localhost")
            reachable = (
                (scheme == "https" and "." in host and not host.endswith(".localhost"))
                or any(re.fullmatch(pattern, h) for h in public_hosts if port is None)
                or (loopback and port in published)
            )
            if not reachable:
                problems.append(f"{where}: {key} {value!r} is handed to browsers, which cannot reach it "
                                f"(not an Ingress host, a published port or a public https URL)")
        elif host in ("127.0.0.1", "localhost"):
            problems.append(f"{where}: {key} {value!r} points at the process itself, not a service")
        elif "." not in host:
            want = internal.get(host)
            if want is None:
                problems.append(f"{where}: {key} {value!r} names {host!r}, which is not a service here")
            elif port != want:
                problems.append(f"{where}: {key} {value!r}: {host} listens on {want}")

    for overlay, docs in overlays.items():
        services = {d["metadata"]["name"]: (d["spec"].get("ports") or [{}])[0].get("port")
                    for d in docs if d.get("kind") == "Service"}
        public = {r.get("host") for i in docs if i.get("kind") == "Ingress" for r in i["spec"].get("rules") or []}
        for d in docs:
            if d.get("kind") != "Deployment" or d["metadata"]["name"] not in workloads:
                continue
            name = d["metadata"]["name"]
            env = effective_env(docs, d)
            wanted = set(keys) | {k for k, who in readers.items() if name in who}
            for key in sorted(wanted):
                check_value(f"{overlay} Deployment {name}", key, env.get(key), services, public, set())
    comp = compose.get("services") or {}
    internal = {n: workloads[n] for n in workloads if n in comp}
    for name in workloads:
        block = comp.get(name)
        if not block:
            continue
        env = {k: str(v) for k, v in (block.get("environment") or {}).items()}
        published = set()
        for b in comp.values():
            for p in b.get("ports") or []:
                parts = str(p).split(":")
                digits = re.findall(r"\d+", parts[-2]) if len(parts) >= 2 else []
                if digits:
                    published.add(int(digits[-1]))
        wanted = set(keys) | {k for k, who in readers.items() if name in who}
        for key in sorted(wanted):
            check_value(f"docker-compose.yml {name}", key, env.get(key), internal, set(), published)
    return problems


# --- TLS: production turns it on for every connection (runtime::tls) ----------------------

TLS_FILES = ("PAYSITE_TLS_CA_FILE", "PAYSITE_TLS_CERT_FILE", "PAYSITE_TLS_KEY_FILE")


def secret_mounts(workload: dict) -> list[str]:
    """The mount paths of the Secret volumes of a workload's first container."""
    spec = workload["spec"]["template"]["spec"]
    secrets = {v["name"] for v in spec.get("volumes") or [] if v.get("secret")}
    return [m["mountPath"] for m in spec["containers"][0].get("volumeMounts") or [] if m.get("name") in secrets]


# What the dashboard must show, by the metric each needs: RED per service, relay lag,
# consumer lag, dead letters.
DASHBOARD_METRICS = {"paysite_http_request_duration_seconds": "requests, errors and duration per service",
                     "paysite_relay_oldest_unpublished_seconds": "relay lag",
                     "paysite_consumer_lag_seconds": "consumer lag",
                     "paysite_dlq_messages": "dead letters per queue"}


def balanced(expr: str) -> bool:
    """Brackets and quotes of a PromQL expression pair up (a cheap syntax check)."""
    stack, quote, escaped = [], None, False
    for ch in expr:
        if quote:
            escaped = not escaped and ch == "\\"
            if ch == quote and not escaped:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "([{":
            stack.append(ch)
        elif ch in ")]}":
            if not stack or "([{"[")]}".index(ch)] != stack.pop():
                return False
    return not stack and quote is None


def dashboard_problems(root: str, docs: list[dict]) -> list[str]:
    """The Grafana dashboard ConfigMap: valid JSON, panels laid out with unique ids, every
    query well formed and on metrics the code emits (or RabbitMQ's), its variables defined,
    and the panels the operations guide promises present."""
    maps = [d for d in docs if d.get("kind") == "ConfigMap" and d["metadata"]["name"] == "paysite-dashboard"]
    if not maps:
        return ["no ConfigMap paysite-dashboard"]
    problems = []
    if (maps[0]["metadata"].get("labels") or {}).get("grafana_dashboard") != "1":
        problems.append("ConfigMap paysite-dashboard: needs the label grafana_dashboard=1 (Grafana's sidecar)")
    for name, text in (maps[0].get("data") or {}).items():
        try:
            dash = json.loads(text)
        except ValueError as e:
            problems.append(f"dashboard {name}: not JSON: {e}")
            continue
        for key in ("uid", "title", "panels", "schemaVersion"):
            if key not in dash:
                problems.append(f"dashboard {name}: no {key}")
        variables = {v.get("name") for v in (dash.get("templating") or {}).get("list") or []}
        ids, used = set(), set()
        emitted = emitted_metrics(root)
        for panel in dash.get("panels") or []:
            pid = panel.get("id")
            if pid in ids:
                problems.append(f"dashboard {name}: panel id {pid} twice")
            ids.add(pid)
            grid = panel.get("gridPos") or {}
            if not all(isinstance(grid.get(k), int) for k in ("x", "y", "w", "h")) or grid.get("x", 0) + grid.get("w", 0) > 24:
                problems.append(f"dashboard {name}: panel {panel.get('title')!r} has no valid gridPos")
            if panel.get("type") == "row":
                continue
            if not panel.get("targets"):
                problems.append(f"dashboard {name}: panel {panel.get('title')!r} has no query")
            for t in panel.get("targets") or []:
                expr = t.get("expr", "")
                if not expr or not balanced(expr):
                    problems.append(f"dashboard {name}: panel {panel.get('title')!r}: malformed query {expr!r}")
                for var in re.findall(r"\$\{?(\w+)", expr + json.dumps(t.get("datasource") or {})):
                    if var not in variables:
                        problems.append(f"dashboard {name}: panel {panel.get('title')!r} uses ${var}, not a variable")
                for metric in re.findall(r"\b(paysite_[a-z_]+)", expr):
                    base = re.sub(r"_(bucket|count|sum)$", "", metric)
                    used.add(base)
                    if base not in emitted:
                        problems.append(f"dashboard {name}: {metric} is not a metric the code emits")
        for metric, what in DASHBOARD_METRICS.items():
            if metric not in used:
                problems.append(f"dashboard {name}: no panel of {what} ({metric})")
    return problems


def certificate_problems(root: str, docs: list[dict]) -> list[str]:
    """Production: cert-manager makes every TLS Secret the pods and the broker use, from an
    Issuer of the overlay, for the names they are reached by: the internal certificate for
    every service, the broker's for paysite-mq, the collector's for the OTLP endpoint's host."""
    problems: list[str] = []
    issuers = {d["metadata"]["name"] for d in docs if d.get("kind") == "Issuer"}
    certificates = {d["spec"].get("secretName"): d for d in docs if d.get("kind") == "Certificate"}
    for d in certificates.values():
        ref = d["spec"].get("issuerRef") or {}
        if ref.get("kind", "Issuer") == "Issuer" and ref.get("name") not in issuers:
            problems.append(f"Certificate {d['metadata']['name']}: its Issuer {ref.get('name')!r} is not in the overlay")
    namespace = next((d["metadata"].get("namespace") for d in docs if d.get("kind") == "Deployment"), "paysite")
    services = [n for n in expected_workloads(root) if n not in DEV_ONLY and n != "gateway"]
    env = next((d.get("data") or {} for d in docs if d.get("kind") == "ConfigMap"
                and d["metadata"]["name"].startswith("paysite-env")), {})
    collector = re.sub(r"^https?://", "", env.get("OTEL_EXPORTER_OTLP_ENDPOINT", "")).split(":")[0].split("/")[0]
    wanted = {
        "paysite-internal-tls": [n for s_ in services for n in (s_, f"{s_}.{namespace}.svc")],
        "paysite-mq-tls": ["paysite-mq", f"paysite-mq.{namespace}.svc"],
        "paysite-collector-tls": [collector] if collector else [],
    }
    for secret, names in wanted.items():
        cert = certificates.get(secret)
        if not cert:
            problems.append(f"no Certificate makes the Secret {secret}")
            continue
        have = set(cert["spec"].get("dnsNames") or [])
        for name in names:
            if name not in have:
                problems.append(f"Certificate {cert['metadata']['name']}: no dnsName {name}")
        if not (cert["spec"].get("privateKey") or {}).get("rotationPolicy") == "Always":
            problems.append(f"Certificate {cert['metadata']['name']}: privateKey.rotationPolicy should be Always")
    return problems


def tls_problems(root: str, docs: list[dict]) -> list[str]:
    """Production: every paysite pod trusts the internal CA from a mounted Secret, every service
    listens with a certificate from one, internal URLs and the collector are https, and the
    broker takes TLS only; the docs build the connection URLs with verify-full and amqps."""
    problems: list[str] = []
    workloads = expected_workloads(root)
    keys = url_keys(root)
    for d in docs:
        if d.get("kind") not in ("Deployment", "Job"):
            continue
        name = d["metadata"]["name"]
        if d["kind"] == "Deployment" and name not in workloads:
            continue
        env, mounts = effective_env(docs, d), secret_mounts(d)
        where = f"{d['kind']} {name}"
        # The gateway listens behind the Ingress, which terminates the browsers' TLS; the
        # migration Job listens on nothing. Both are clients only.
        wanted = TLS_FILES if d["kind"] == "Deployment" and name != "gateway" else TLS_FILES[:1]
        for key in wanted:
            value = env.get(key)
            if not value:
                problems.append(f"{where}: {key} is not set")
            elif not any(value.startswith(m.rstrip("/") + "/") for m in mounts):
                problems.append(f"{where}: {key} {value!r} is not in a mounted Secret ({mounts or 'none'})")
        for key in sorted(keys | {"OTEL_EXPORTER_OTLP_ENDPOINT"}):
            value = env.get(key)
            if value and not value.startswith("https://"):
                problems.append(f"{where}: {key} {value!r} is not https")
        # Only a process that serves internal TLS holds the internal key.
        if wanted == TLS_FILES[:1]:
            if env.get("PAYSITE_TLS_KEY_FILE"):
                problems.append(f"{where}: serves no internal TLS but is given PAYSITE_TLS_KEY_FILE")
            for v in d["spec"]["template"]["spec"].get("volumes") or []:
                secret = v.get("secret") or {}
                if secret.get("secretName") == "paysite-internal-tls":
                    items = {i.get("key") for i in secret.get("items") or []}
                    if not items or items - {"ca.crt"}:
                        problems.append(f"{where}: mounts the internal TLS Secret beyond its ca.crt (the key)")
    brokers = [d for d in docs if d.get("kind") == "RabbitmqCluster"]
    for b in brokers:
        tls = (b.get("spec") or {}).get("tls") or {}
        if not tls.get("secretName") or not tls.get("disableNonTLSListeners"):
            problems.append(f"RabbitmqCluster {b['metadata']['name']}: spec.tls (secretName, disableNonTLSListeners) "
                            f"must turn TLS on and the plain listener off")
    ops = open(os.path.join(root, "docs", "operations.md")).read()
    for needle in ("sslmode=verify-full", "amqps://"):
        if needle not in ops:
            problems.append(f"docs/operations.md: the connection recipe does not use {needle}")
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
    ops = str((s.get("environment") or {}).get("PAYSITE_OPS_ADDR", ""))
    if port is not None and ops != f"0.0.0.0:{port + OPS_OFFSET}":
        problems.append(f"docker-compose.yml {name}: PAYSITE_OPS_ADDR {ops!r} is not 0.0.0.0:{port + OPS_OFFSET}")
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


# Cargo features that must never be in the release image: the demo data (users with a
# published password, generated media) and the benchmarks.
RELEASE_FORBIDDEN_FEATURES = ("demo", "bench")


def release_build_problems(text: str) -> list[str]:
    """Every `cargo build` of `paysite` in the Dockerfile leaves the default features (demo,
    bench) out and turns none of them back on."""
    problems = []
    # Whole RUN instructions, their continuation lines joined.
    joined = re.sub(r"\\\n", " ", text)
    builds = [line for line in joined.splitlines() if re.search(r"cargo\s+build\b.*-p\s+paysite\b", line)]
    if not builds:
        problems.append("Dockerfile: no `cargo build ... -p paysite`")
    # A build argument's default is the release's value: only a development build (compose)
    # may pass more.
    for name, default in re.findall(r"^ARG\s+(\w*FEATURES\w*)=(\S*)", text, re.M):
        for feature in re.split(r"[ ,]", default.strip("'\"")):
            if feature.split("/")[-1] in RELEASE_FORBIDDEN_FEATURES:
                problems.append(f"Dockerfile: ARG {name} defaults to the {feature!r} feature")
    for line in builds:
        if "--no-default-features" not in line:
            problems.append(f"Dockerfile: `{line.strip()}` builds the default features (demo, bench): "
                            "add --no-default-features")
        if "--all-features" in line:
            problems.append(f"Dockerfile: `{line.strip()}` turns every feature on")
        for flag in re.findall(r"(?:--features|-F)[ =]+(\S+)", line):
            for feature in re.split(r"[ ,]", flag.strip("'\"")):
                if feature.split("/")[-1] in RELEASE_FORBIDDEN_FEATURES:
                    problems.append(f"Dockerfile: `{line.strip()}` turns on the {feature!r} feature")
    return problems


def dockerfile_problems(root: str, text: str | None = None) -> list[str]:
    text = open(os.path.join(root, "Dockerfile")).read() if text is None else text
    problems = release_build_problems(text)
    users = re.findall(r"^USER\s+(\S+)", text, re.M)
    if not users or users[-1].split(":")[0] in {"0", "root"}:
        problems.append("Dockerfile: the last stage must run as a non-root USER")
    for needed in ("npm ci", "npm run build", "cargo build --release --locked -p paysite --no-default-features",
                   "frontend/dist", "config/"):
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
    for overlay, docs in overlays.items():
        checks.check(f"{overlay}: the Grafana dashboard (RED per service, relay and consumer lag, dead letters) is valid",
                     dashboard_problems(root, docs))
    checks.check("Dockerfile: SPA and paysite stages, non-root runtime, no demo or bench features",
                 dockerfile_problems(root))
    checks.check("URLs: every URL a flow needs is set in compose and every overlay, reachable by whoever uses it",
                 url_problems(root, overlays, compose))
    checks.check("secrets: the manifests read the Secrets (and keys) docs/operations.md names, and no other",
                 secret_problems(documented_secrets(root), overlays))
    for overlay, docs in overlays.items():
        checks.check(f"{overlay}: each service connects as its own database role; the Job migrates as each",
                     database_role_problems(docs, role_services(workloads)))
    if "prod" in overlays:
        checks.check("prod: TLS on every connection (CA and certificates from Secrets, https, amqps, verify-full)",
                     tls_problems(root, overlays["prod"]))
        checks.check("prod: cert-manager makes the internal, broker and collector certificates, for their names",
                     certificate_problems(root, overlays["prod"]))


def role_services(workloads: dict[str, int]) -> list[str]:
    """The services that keep a schema, each with a role of its own: all but the gateway and
    the development-only ones."""
    return sorted(n for n in workloads if n != "gateway" and n not in DEV_ONLY)


def self_test(root: str, overlays: dict[str, list[dict]], compose: dict, checks: Checks) -> None:
    services = role_services(expected_workloads(root))
    for label, mutate in (
        ("the wallet connecting as the catalog's role", lambda d: d.get("kind") == "Deployment"
         and d["metadata"]["name"] == "wallet" and [v["secret"].update(secretName="paysite-db-catalog")
                                                    for v in d["spec"]["template"]["spec"]["volumes"]
                                                    if (v.get("secret") or {}).get("secretName") == "paysite-db-wallet"]),
        ("the Job without the unlocks' role", lambda d: d.get("kind") == "Job" and [
            v["projected"].update(sources=[s_ for s_ in v["projected"]["sources"]
                                           if s_["secret"]["name"] != "paysite-db-unlocks"])
            for v in d["spec"]["template"]["spec"]["volumes"] if v.get("projected")]),
        ("the Cluster without the deals' role", lambda d: d.get("kind") == "Cluster" and d["spec"]["managed"].update(
            roles=[r for r in d["spec"]["managed"]["roles"] if r["name"] != "paysite_deals"])),
        ("the catalog's role a superuser", lambda d: d.get("kind") == "Cluster" and [
            r.update(superuser=True) for r in d["spec"]["managed"]["roles"] if r["name"] == "paysite_catalog"]),
    ):
        mutated = copy.deepcopy(overlays["prod"])
        for d in mutated:
            mutate(d)
        checks.check(f"self-test: {label} fails", [] if database_role_problems(mutated, services) else ["went unnoticed"])
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
    mutated = copy.deepcopy(docs)
    for d in mutated:
        if d.get("kind") == "Deployment" and d["metadata"]["name"] == name:
            d["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGet"]["port"] = "http"
    checks.check(f"self-test: {overlay} with {name}'s readinessProbe on the API port fails",
                 [] if workload_problems(mutated, name, workloads[name]) else ["went unnoticed"])
    mutated = copy.deepcopy(docs)
    for d in mutated:
        if d.get("kind") == "Job":
            d["metadata"]["name"] = "paysite-migrate"
    checks.check(f"self-test: {overlay} with a fixed migration Job name fails",
                 [] if namespace_problems(root, overlay, mutated) else ["went unnoticed"])
    mutated = copy.deepcopy(docs)
    for d in mutated:
        if d.get("kind") == "PrometheusRule":
            d["spec"]["groups"][0]["rules"][0]["expr"] = "paysite_no_such_metric > 1"
    checks.check(f"self-test: {overlay} with an alert on a metric the code does not emit fails",
                 [] if namespace_problems(root, overlay, mutated) else ["went unnoticed"])
    checks.check(f"self-test: {overlay} without the PodMonitor fails",
                 [] if namespace_problems(root, overlay, [d for d in docs if d.get("kind") != "PodMonitor"])
                 else ["went unnoticed"])
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
    # A URL a flow needs, missing or unreachable.
    for label, key, value in (("PAYSITE_PAYMENTS_URL unset", "PAYSITE_PAYMENTS_URL", None),
                              ("the sandbox's in-cluster name handed to browsers", "PAYSITE_SANDBOX_URL",
                               "http://sandbox:8090")):
        mutated = copy.deepcopy(overlays)
        for docs_ in mutated.values():
            for d in docs_:
                if d.get("kind") == "ConfigMap" and d["metadata"]["name"].startswith("paysite-env"):
                    d["data"].pop(key, None)
                    if value:
                        d["data"][key] = value
        checks.check(f"self-test: {label} fails", [] if url_problems(root, mutated, compose) else ["went unnoticed"])
    scratch = copy.deepcopy(compose)
    scratch["x-paysite-env"] = None
    for b in scratch["services"].values():
        (b.get("environment") or {}).pop("PAYSITE_PAYMENTS_URL", None)
    checks.check("self-test: compose without PAYSITE_PAYMENTS_URL fails",
                 [] if url_problems(root, overlays, scratch) else ["went unnoticed"])
    # A Secret read under another name than the docs give, or documented and never read.
    renamed = copy.deepcopy(overlays)
    for docs_ in renamed.values():
        for d in docs_:
            if d.get("kind") == "Deployment" and d["metadata"]["name"] == "subscription":
                for v in d["spec"]["template"]["spec"].get("volumes") or []:
                    if (v.get("secret") or {}).get("secretName") == "paysite-billers":
                        v["secret"]["secretName"] = "paysite-biller-secrets"
    checks.check("self-test: subscription reading paysite-biller-secrets (not the docs' paysite-billers) fails",
                 [] if secret_problems(documented_secrets(root), renamed) else ["went unnoticed"])
    documented = documented_secrets(root)
    documented["paysite-forgotten"] = {"X"}
    checks.check("self-test: a documented Secret no manifest reads fails",
                 [] if secret_problems(documented, overlays) else ["went unnoticed"])
    # TLS turned off anywhere in production is noticed.
    if "prod" in overlays:
        prod = overlays["prod"]
        for label, mutate in (
            (f"{name} without its TLS Secret volume", lambda d: d.get("kind") == "Deployment"
             and d["metadata"]["name"] == name and d["spec"]["template"]["spec"].update(
                 volumes=[v for v in d["spec"]["template"]["spec"]["volumes"] if not v.get("secret")])),
            ("an http internal URL", lambda d: d.get("kind") == "ConfigMap"
             and d["metadata"]["name"].startswith("paysite-env")
             and d["data"].update(PAYSITE_WALLET_URL="http://wallet:8103")),
            ("the broker's plain listener on", lambda d: d.get("kind") == "RabbitmqCluster"
             and d["spec"].pop("tls", None)),
            ("the gateway mounting the internal TLS key", lambda d: d.get("kind") == "Deployment"
             and d["metadata"]["name"] == "gateway" and [v["secret"].pop("items", None)
                                                         for v in d["spec"]["template"]["spec"]["volumes"]
                                                         if (v.get("secret") or {}).get("secretName") == "paysite-internal-tls"]),
        ):
            mutated = copy.deepcopy(prod)
            for d in mutated:
                mutate(d)
            checks.check(f"self-test: prod with {label} fails",
                         [] if tls_problems(root, mutated) else ["went unnoticed"])
    # A secret handed over as an environment variable again.
    mutated = copy.deepcopy(docs)
    for d in mutated:
        if d.get("kind") == "Deployment" and d["metadata"]["name"] == name:
            c = d["spec"]["template"]["spec"]["containers"][0]
            c["env"] = [e for e in c["env"] if e["name"] != "DATABASE_URL_FILE"] + [
                {"name": "DATABASE_URL", "valueFrom": {"secretKeyRef": {"name": "paysite-connections", "key": "DATABASE_URL"}}}]
    checks.check(f"self-test: {overlay} with {name}'s DATABASE_URL as an environment variable fails",
                 [] if workload_problems(mutated, name, workloads[name]) else ["went unnoticed"])
    # The gateway given the database, by its environment or by a NetworkPolicy.
    gateway_port = workloads.get("gateway")
    for label, mutate in (
        ("given DATABASE_URL", lambda d: d.get("kind") == "Deployment" and d["metadata"]["name"] == "gateway"
         and d["spec"]["template"]["spec"]["containers"][0]["env"].append(
             {"name": "DATABASE_URL", "valueFrom": {"secretKeyRef": {"name": "paysite-connections", "key": "DATABASE_URL"}}})),
        ("let out to PostgreSQL", lambda d: d.get("kind") == "NetworkPolicy"
         and d["metadata"]["name"] == "paysite-egress-database" and d["spec"]["podSelector"].pop("matchExpressions")),
    ):
        mutated = copy.deepcopy(docs)
        for d in mutated:
            mutate(d)
        checks.check(f"self-test: {overlay} with the gateway {label} fails",
                     [] if workload_problems(mutated, "gateway", gateway_port) else ["went unnoticed"])
    # A dashboard on a metric the code does not emit, with a panel id twice, without the
    # consumer lag, or with a broken query.
    def with_dashboard(change):
        mutated = copy.deepcopy(docs)
        for d in mutated:
            if d.get("kind") == "ConfigMap" and d["metadata"]["name"] == "paysite-dashboard":
                for key, text in d["data"].items():
                    dash = json.loads(text)
                    change(dash)
                    d["data"][key] = json.dumps(dash)
        return mutated
    def first_query(dash):
        return [p for p in dash["panels"] if p.get("targets")][0]["targets"][0]
    for label, change in (
        ("a metric the code does not emit", lambda dash: first_query(dash).update(expr="rate(paysite_nothing_total[5m])")),
        ("a panel id twice", lambda dash: dash["panels"][2].update(id=dash["panels"][1]["id"])),
        ("no consumer lag", lambda dash: dash.update(panels=[p for p in dash["panels"]
                                                              if "paysite_consumer_lag" not in json.dumps(p)])),
        ("an unbalanced query", lambda dash: first_query(dash).update(expr=first_query(dash)["expr"] + ")")),
    ):
        checks.check(f"self-test: a dashboard with {label} fails",
                     [] if dashboard_problems(root, with_dashboard(change)) else ["went unnoticed"])
    # An alert whose runbook is missing, or points at a section that is not there.
    for label, runbook in (("no runbook", None), ("a runbook section that does not exist", "docs/operations.md#nowhere")):
        mutated = copy.deepcopy(docs)
        for d in mutated:
            if d.get("kind") == "PrometheusRule":
                rule = d["spec"]["groups"][0]["rules"][0]
                if runbook is None:
                    rule["annotations"].pop("runbook", None)
                else:
                    rule["annotations"]["runbook"] = runbook
        checks.check(f"self-test: an alert with {label} fails",
                     [] if runbook_problems(root, mutated) else ["went unnoticed"])
    # The broker's monitor on a port the TLS broker does not serve its metrics on.
    mutated = copy.deepcopy(docs)
    for d in mutated:
        if d.get("kind") == "PodMonitor" and d["metadata"]["name"] == "paysite-mq":
            d["spec"]["podMetricsEndpoints"][0]["port"] = "ops"
    checks.check("self-test: the broker's PodMonitor on another port fails",
                 [] if check_custom_resources(mutated) else ["went unnoticed"])
    # The release image built with the demo data or the benchmarks again.
    dockerfile = open(os.path.join(root, "Dockerfile")).read()
    for label, mutated_text in (
        ("default features", dockerfile.replace(" --no-default-features", "")),
        ("--features demo", dockerfile.replace("--no-default-features", "--no-default-features --features demo")),
        ("-F paysite/bench", dockerfile.replace("--no-default-features", "--no-default-features -F paysite/bench")),
        ("--all-features", dockerfile.replace("--no-default-features", "--all-features")),
        ("PAYSITE_FEATURES defaulting to demo", dockerfile.replace('ARG PAYSITE_FEATURES=""', 'ARG PAYSITE_FEATURES="demo"')),
    ):
        checks.check(f"self-test: the Dockerfile building paysite with {label} fails",
                     [] if mutated_text != dockerfile and release_build_problems(mutated_text)
                     else ["went unnoticed"])
    # A certificate missing, for the wrong names, or from an Issuer that is not there.
    if "prod" in overlays:
        for label, mutate in (
            ("without the broker's Certificate", lambda ds: [d for d in ds if not (d.get("kind") == "Certificate"
                                                                                   and d["spec"]["secretName"] == "paysite-mq-tls")]),
            ("an internal certificate missing wallet", lambda ds: [d["spec"].update(dnsNames=[n for n in d["spec"]["dnsNames"]
                                                                                          if not n.startswith("wallet")])
                                                                   or d if d.get("kind") == "Certificate"
                                                                   and d["spec"]["secretName"] == "paysite-internal-tls"
                                                                   else d for d in ds]),
            ("no CA Issuer", lambda ds: [d for d in ds if not (d.get("kind") == "Issuer"
                                                               and d["metadata"]["name"] == "paysite-internal")]),
        ):
            checks.check(f"self-test: prod {label} fails",
                         [] if certificate_problems(root, mutate(copy.deepcopy(overlays["prod"]))) else ["went unnoticed"])
    # A custom resource with a field its operator does not know (a typo) fails its schema.
    mutated = copy.deepcopy(docs)
    for d in mutated:
        if d.get("kind") == "RabbitmqCluster":
            d["spec"]["replica"] = d["spec"].get("replicas")
        if d.get("kind") == "PodMonitor":
            d["spec"]["podMetricsEndpoints"][0]["interval"] = "half a minute"
    found = schema_problems(mutated)
    checks.check("self-test: an unknown RabbitmqCluster field and a malformed PodMonitor interval fail their schemas",
                 [] if any("replica" in p for p in found) and any("interval" in p for p in found)
                 else [f"went unnoticed: {found}"])
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
