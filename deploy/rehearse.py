#!/usr/bin/env python3
"""The production rehearsal: the prod overlay, rendered with kustomize, run as processes on
this machine (scripts/rehearse; docs/operations.md, "Rehearsing a release").

It follows docs/operations.md "Deploy" in its order, makes the Secrets with the commands of
its "Secrets" section (run as written, with a `kubectl` that keeps Secrets in a directory),
runs the migration Job and every Deployment's container with the command, arguments,
environment and mounted files the rendered manifests give it, as many replicas as its
HorizontalPodAutoscaler's minReplicas, then rolls every Deployment under load, rotates the
service key and a biller's secret, and checks the money invariants. It prints each step and
exits non-zero at the first that fails.

Only these substitutions are made (printed when it starts):
  - a Service's DNS name becomes a loopback port (a TCP proxy that, like a Service, sends
    connections to the ready pods only), and each pod gets a loopback address of its own
    (127.0.<deployment>.<pod>) for its `0.0.0.0` listeners;
  - a mounted Secret or ConfigMap becomes a directory of files in the run's directory, a
    PersistentVolumeClaim's volume one directory there shared by the pods that mount it, and
    the image's own files (/app/config, /app/frontend/dist) the repository's;
  - the image becomes the release binary, built by the Dockerfile's own `cargo build` line;
  - the cluster's operators become local servers: a throwaway PostgreSQL that takes TLS only
    (verify-full, with a CA generated for the run) and a RabbitMQ node of the run's own that
    listens with TLS only (amqps), whose credentials are handed over in the Secrets the
    operators write (paysite-db-app, paysite-mq-default-user), and the PostgreSQL roles are
    the Cluster's managed roles, made with their Secrets' passwords; cert-manager's Certificates
    are issued by that CA, for their dnsNames and `localhost` (the loopback name above);
    the trace collector is a local OTLP/HTTP endpoint over TLS;
  - the operator's own addresses for the overlay's example.com placeholders (Deploy, step 2).
"""

from __future__ import annotations

import base64
import glob
import hashlib
import hmac
import http.client
import json
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMESPACE = "paysite"
STARTED = time.monotonic()
# The operator's addresses for the placeholders (Deploy, step 2): any real domain will do.
OPERATOR_ADDRESSES = {"PAYSITE_SANDBOX_URL": "https://payments.paysite-rehearsal.net",
                      "PAYSITE_PAYMENTS_URL": "https://payments.paysite-rehearsal.net"}
BRANDS = ["vixen", "tushy"]
LOAD_CLIENTS = 3
# What a channel pack costs (UNLOCKS_PACK_GEMS's default; the overlay sets none).
PACK_GEMS = 10
# The content the operator publishes ("Publishing content").
CONTENT = os.path.join(ROOT, "deploy", "content", "example.json")
# The documents the front end is built with (codegen's manifest, built into the gateway): in
# production the gateway executes these and nothing else, so the rehearsal asks what the SPA asks.
DOCUMENTS = os.path.join(ROOT, "frontend", "src", "gql", "persisted-documents.json")


def registered_documents() -> dict[str, tuple[str, str]]:
    """The front end's operations by name: (hash, "query" or "mutation")."""
    found = {}
    for digest, text in json.load(open(DOCUMENTS)).items():
        for kind, name in re.findall(r"\b(query|mutation) (\w+)", text):
            found[name] = (digest, kind)
    return found


class Failed(Exception):
    pass


def say(text: str) -> None:
    print(f"rehearse [{time.monotonic() - STARTED:6.1f}s] {text}", flush=True)


def step(number, title: str):
    say(f"step {number}: {title}")


def check(ok: bool, what: str) -> None:
    if not ok:
        raise Failed(what)
    say(f"  ok: {what}")


def run(cmd, **kw) -> subprocess.CompletedProcess:
    out = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if out.returncode != 0:
        raise Failed(f"{' '.join(map(str, cmd))} failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
    return out


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


# --- certificates ---------------------------------------------------------------------------


class CA:
    """The run's certificate authority (openssl): cert-manager's and the operators' stand-in."""

    def __init__(self, directory: str):
        self.dir = directory
        os.makedirs(directory, exist_ok=True)
        self._openssl("req", "-x509", "-days", "2", "-subj", "/CN=paysite rehearsal CA", "-newkey", "ec",
                      "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
                      "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
        self.crt = os.path.join(directory, "ca.crt")

    def _openssl(self, *args: str) -> None:
        run(["openssl", *args], cwd=self.dir)

    def issue(self, name: str, dns: list[str]) -> tuple[str, str]:
        """A server certificate for `dns` (and localhost, 127.0.0.1): (cert path, key path)."""
        names = [f"DNS:{d}" for d in dict.fromkeys(dns + ["localhost"])] + ["IP:127.0.0.1"]
        with open(os.path.join(self.dir, f"{name}.ext"), "w") as f:
            f.write(f"subjectAltName={','.join(names)}\nbasicConstraints=CA:FALSE\n"
                    "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth,clientAuth\n")
        self._openssl("req", "-new", "-subj", f"/CN={dns[0] if dns else 'localhost'}", "-newkey", "ec", "-pkeyopt",
                      "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr")
        self._openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                      "-days", "2", "-extfile", f"{name}.ext", "-out", f"{name}.crt")
        return os.path.join(self.dir, f"{name}.crt"), os.path.join(self.dir, f"{name}.key")


# --- Secrets: a directory per Secret, a file per key ---------------------------------------


class Secrets:
    def __init__(self, directory: str):
        self.dir = directory
        os.makedirs(directory, exist_ok=True)

    def put(self, name: str, data: dict[str, str]) -> None:
        path = os.path.join(self.dir, name)
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
        for key, value in data.items():
            with open(os.path.join(path, key), "w") as f:
                f.write(value)

    def get(self, name: str) -> dict[str, str]:
        path = os.path.join(self.dir, name)
        if not os.path.isdir(path):
            raise Failed(f"the Secret {name} does not exist (docs/operations.md, \"Secrets\", makes it)")
        return {k: open(os.path.join(path, k)).read() for k in sorted(os.listdir(path))}


KUBECTL_SHIM = r'''#!/usr/bin/env python3
# kubectl as docs/operations.md uses it, against the rehearsal's Secrets (a directory per Secret):
# get secret -o jsonpath={.data.KEY}, create secret generic --dry-run=client (the real kubectl),
# apply -f -, patch secret (merge or json), rollout restart/status and exec (ask the rehearsal).
import base64, json, os, sys, time, uuid, subprocess, yaml
store, requests = os.environ["REHEARSE_SECRETS"], os.environ["REHEARSE_REQUESTS"]
args = sys.argv[1:]
if args[:1] == ["-n"]:
    args = args[2:]
def secret_dir(name): return os.path.join(store, name)
def write(name, data):
    d = secret_dir(name); os.makedirs(d, exist_ok=True)
    for f in os.listdir(d): os.remove(os.path.join(d, f))
    for k, v in data.items():
        open(os.path.join(d, k), "w").write(v)
def read(name):
    d = secret_dir(name)
    if not os.path.isdir(d): sys.exit(f'Error from server (NotFound): secrets "{name}" not found')
    return {k: open(os.path.join(d, k)).read() for k in os.listdir(d)}
if args[:2] == ["get", "secret"]:
    name, rest = args[2], args[3:]
    path = rest[rest.index("-o") + 1] if "-o" in rest else ""
    key = path.split("{.data.", 1)[1].rstrip("}")
    data = read(name)
    if key not in data: sys.exit(f"error: {key} is not in {name}")
    sys.stdout.write(base64.b64encode(data[key].encode()).decode())
elif args[:1] == ["create"]:
    sys.exit(subprocess.run(["/usr/bin/kubectl", *args]).returncode)
elif args[:2] == ["apply", "-f"]:
    for doc in yaml.safe_load_all(sys.stdin):
        if not doc: continue
        data = {k: base64.b64decode(v).decode() for k, v in (doc.get("data") or {}).items()}
        data.update(doc.get("stringData") or {})
        write(doc["metadata"]["name"], data)
        print(f"secret/{doc['metadata']['name']} configured")
elif args[:2] == ["patch", "secret"]:
    name = args[2]; kind = args[args.index("--type") + 1]; patch = json.loads(args[args.index("-p") + 1])
    data = read(name)
    if kind == "merge":
        data.update(patch.get("stringData") or {})
        data.update({k: base64.b64decode(v).decode() for k, v in (patch.get("data") or {}).items()})
    else:
        for op in patch:
            key = op["path"].split("/data/", 1)[1]
            if op["op"] in ("replace", "add"): data[key] = base64.b64decode(op["value"]).decode()
            elif op["op"] == "remove": data.pop(key)
    write(name, data)
    print(f"secret/{name} patched")
elif args[:2] == ["rollout", "restart"]:
    target = args[2]
    if target == "deployment" and "-l" in args: target = "deployment -l " + args[args.index("-l") + 1]
    req = os.path.join(requests, f"{time.time_ns()}-{uuid.uuid4().hex}")
    open(req + ".json", "w").write(json.dumps({"restart": target}))
    while not os.path.exists(req + ".done"): time.sleep(0.2)
    result = open(req + ".done").read()
    if result != "ok": sys.exit(f"rollout restart {target} failed: {result}")
    print(f"{target} restarted")
elif args[:1] == ["exec"]:
    # exec -i deploy/<name> -- <command...>: the command in one of the Deployment's pods, with
    # its environment and files, standard input passed on.
    target, command = args[args.index("-i") + 1 if "-i" in args else 1], args[args.index("--") + 1:]
    req = os.path.join(requests, f"{time.time_ns()}-{uuid.uuid4().hex}")
    open(req + ".stdin", "wb").write(sys.stdin.buffer.read() if "-i" in args else b"")
    open(req + ".json", "w").write(json.dumps({"exec": target, "command": command}))
    while not os.path.exists(req + ".done"): time.sleep(0.2)
    answer = json.loads(open(req + ".done").read())
    sys.stdout.write(answer["output"])
    sys.exit(answer["code"])
elif args[:2] == ["rollout", "status"]:
    print("rolled out")
else:
    sys.exit(f"kubectl shim: {args} is not something docs/operations.md should need here")
'''


def doc_blocks(marker: str) -> list[str]:
    """The sh blocks of docs/operations.md that follow `<!-- rehearse: marker -->`."""
    text = open(os.path.join(ROOT, "docs", "operations.md")).read()
    found = re.findall(r"<!-- rehearse: " + re.escape(marker) + r" -->\s*```sh\n(.*?)```", text, re.S)
    if not found:
        raise Failed(f"docs/operations.md has no block marked `rehearse: {marker}`")
    return found


# --- TCP proxies: a Service ----------------------------------------------------------------


class Service:
    """A Service: a loopback port whose connections go round-robin to the ready endpoints."""

    def __init__(self, name: str):
        self.name = name
        self.port = free_port()
        self.endpoints: list[tuple[str, int]] = []
        self.lock = threading.Lock()
        self.turn = 0
        self.listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        with self.lock:
            endpoints = list(self.endpoints)
            self.turn += 1
        if not endpoints:
            client.close()
            return
        target = endpoints[self.turn % len(endpoints)]
        try:
            upstream = socket.create_connection(target, timeout=5)
            upstream.settimeout(None)
        except OSError:
            client.close()
            return

        def pump(a: socket.socket, b: socket.socket) -> None:
            try:
                while data := a.recv(65536):
                    b.sendall(data)
            except OSError:
                pass
            finally:
                for s in (a, b):
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass

        threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
        pump(upstream, client)
        client.close()
        upstream.close()


# --- the backing services -------------------------------------------------------------------


def pg_bin() -> str:
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not versions:
        raise Failed("PostgreSQL's server programs (initdb) are not under /usr/lib/postgresql")
    return os.path.dirname(versions[-1])


def as_user(user: str, cmd: list[str]) -> list[str]:
    return ["runuser", "-u", user, "--", *cmd] if os.geteuid() == 0 else cmd


class Postgres:
    """CloudNativePG's stand-in: a throwaway cluster taking TLS only (scram), the database
    `paysite` owned by `paysite` as `bootstrap.initdb` makes it."""

    def __init__(self, directory: str, cert: str, key: str):
        self.dir, self.port = directory, free_port()
        self.password = base64.urlsafe_b64encode(os.urandom(18)).decode()
        os.makedirs(directory, exist_ok=True)
        if os.geteuid() == 0:
            run(["chown", "-R", "postgres:postgres", directory])
        data = os.path.join(directory, "data")
        bin_ = pg_bin()
        run(as_user("postgres", [f"{bin_}/initdb", "-A", "trust", "-U", "postgres", "--no-sync", "-D", data]))
        for src, dst in ((cert, "server.crt"), (key, "server.key")):
            shutil.copy(src, os.path.join(data, dst))
            os.chmod(os.path.join(data, dst), 0o600)
            if os.geteuid() == 0:
                run(["chown", "postgres:postgres", os.path.join(data, dst)])
        with open(os.path.join(data, "postgresql.conf"), "a") as f:
            f.write(f"listen_addresses = '127.0.0.1'\nport = {self.port}\nunix_socket_directories = '{directory}'\n"
                    "ssl = on\nmax_connections = 200\nfsync = off\npassword_encryption = scram-sha-256\n")
        with open(os.path.join(data, "pg_hba.conf"), "w") as f:
            f.write("local all all trust\nhostssl all all 127.0.0.1/32 scram-sha-256\nhost all all 0.0.0.0/0 reject\n")
        self.log = open(os.path.join(directory, "postgres.log"), "w")
        self.proc = subprocess.Popen(as_user("postgres", [f"{bin_}/postgres", "-D", data]), stdout=self.log,
                                     stderr=subprocess.STDOUT)
        psql = as_user("postgres", [f"{bin_}/psql", "-h", directory, "-p", str(self.port), "-U", "postgres", "-d",
                                    "postgres", "-v", "ON_ERROR_STOP=1", "-qc"])
        for _ in range(100):
            if subprocess.run(psql + ["select 1"], capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        run(psql + [f"create role paysite login password '{self.password}'"])
        run(psql + ["create database paysite owner paysite"])
        self.psql = as_user("postgres", [f"{bin_}/psql", "-h", directory, "-p", str(self.port), "-U", "postgres",
                                         "-d", "paysite", "-v", "ON_ERROR_STOP=1", "-Atqc"])

    def query(self, sql: str) -> str:
        return run(self.psql + [sql]).stdout.strip()

    def managed_roles(self, cluster: dict, secrets: "Secrets") -> list[str]:
        """What CloudNativePG does with the Cluster's `spec.managed.roles`: each role made (or
        its password set again) with the password of its `passwordSecret`."""
        made = []
        for role in (cluster["spec"].get("managed") or {}).get("roles") or []:
            secret = secrets.get(role["passwordSecret"]["name"])
            if secret.get("username") != role["name"]:
                raise Failed(f"the Secret {role['passwordSecret']['name']} has username {secret.get('username')!r}, "
                             f"not the role's name {role['name']} (CloudNativePG refuses it)")
            password = secret["password"].replace("'", "''")
            attributes = ("LOGIN" if role.get("login") else "NOLOGIN") + ("" if role.get("inherit", True) else " NOINHERIT")
            exists = self.query(f"select count(*) from pg_roles where rolname = '{role['name']}'") == "1"
            verb = "alter" if exists else "create"
            self.query(f"{verb} role {role['name']} {attributes} password '{password}'")
            made.append(role["name"])
        return made

    def as_role(self, url: str, sql: str) -> subprocess.CompletedProcess:
        """`sql` run by the role of `url` (a service's), over TLS with its password."""
        parts = urllib.parse.urlsplit(url)
        env = dict(os.environ, PGPASSWORD=urllib.parse.unquote(parts.password or ""), PGSSLMODE="require")
        return subprocess.run([f"{pg_bin()}/psql", "-h", "127.0.0.1", "-p", str(self.port), "-U",
                               urllib.parse.unquote(parts.username or ""), "-d", "paysite", "-Atqc", sql],
                              env=env, capture_output=True, text=True)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class RabbitMQ:
    """The RabbitMQ Cluster Operator's stand-in: a node of the run's own whose only listener is
    amqps (the overlay's `disableNonTLSListeners`), with a generated default user."""

    def __init__(self, directory: str, cert: str, key: str, ca: str):
        self.dir, self.port = directory, free_port()
        self.node = f"rehearse{os.getpid()}@localhost"
        self.user, self.password = "paysite-mq-default", base64.urlsafe_b64encode(os.urandom(18)).decode()
        os.makedirs(directory, exist_ok=True)
        for src, dst in ((cert, "tls.crt"), (key, "tls.key"), (ca, "ca.crt")):
            shutil.copy(src, os.path.join(directory, dst))
        with open(os.path.join(directory, "rabbitmq.conf"), "w") as f:
            f.write(f"listeners.tcp = none\nlisteners.ssl.default = 127.0.0.1:{self.port}\n"
                    f"ssl_options.cacertfile = {directory}/ca.crt\nssl_options.certfile = {directory}/tls.crt\n"
                    f"ssl_options.keyfile = {directory}/tls.key\nssl_options.verify = verify_none\n"
                    "ssl_options.fail_if_no_peer_cert = false\n")
        with open(os.path.join(directory, "enabled_plugins"), "w") as f:
            f.write("[].\n")
        if os.geteuid() == 0:
            run(["chown", "-R", "rabbitmq:rabbitmq", directory])
        self.env = dict(os.environ, RABBITMQ_NODENAME=self.node, RABBITMQ_NODE_PORT=str(free_port()),
                        RABBITMQ_DIST_PORT=str(free_port()), RABBITMQ_CONFIG_FILE=f"{directory}/rabbitmq",
                        RABBITMQ_ENABLED_PLUGINS_FILE=f"{directory}/enabled_plugins",
                        RABBITMQ_MNESIA_BASE=f"{directory}/mnesia", RABBITMQ_LOG_BASE=f"{directory}/log",
                        RABBITMQ_PID_FILE=f"{directory}/pid")
        run(["rabbitmq-server", "-detached"], env=self.env)
        # The node registers with epmd a moment after -detached returns; then it boots.
        deadline = time.monotonic() + 90
        while subprocess.run(["rabbitmqctl", "-n", self.node, "await_startup", "--timeout", "60"], env=self.env,
                             capture_output=True).returncode != 0:
            if time.monotonic() > deadline:
                raise Failed(f"the RabbitMQ node {self.node} did not start: {tail(directory + '/log/' + self.node + '.log')}")
            time.sleep(0.5)
        self.ctl(["add_user", self.user, self.password])
        self.ctl(["set_permissions", "-p", "/", self.user, ".*", ".*", ".*"])
        self.ctl(["delete_user", "guest"])

    def ctl(self, args: list[str]) -> str:
        return run(["rabbitmqctl", "-n", self.node, *args], env=self.env).stdout

    def stop(self) -> None:
        subprocess.run(["rabbitmqctl", "-n", self.node, "stop"], env=self.env, capture_output=True)


class Collector:
    """The trace collector's stand-in: OTLP/HTTP over TLS, answering every export."""

    def __init__(self, cert: str, key: str):
        import http.server

        class Handler(http.server.BaseHTTPRequestHandler):
            exports = 0

            def do_POST(self):  # noqa: N802
                self.rfile.read(int(self.headers.get("content-length") or 0))
                Handler.exports += 1
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.handler = Handler
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


# --- the rendered manifests ----------------------------------------------------------------


class Manifests:
    def __init__(self, docs: list[dict]):
        self.docs = docs

    def of(self, kind: str) -> list[dict]:
        return [d for d in self.docs if d.get("kind") == kind]

    def named(self, kind: str, name: str) -> dict:
        return next(d for d in self.of(kind) if d["metadata"]["name"] == name)

    def config_map(self, name: str) -> dict[str, str]:
        return dict(self.named("ConfigMap", name).get("data") or {})

    def min_replicas(self, deployment: str) -> int:
        for h in self.of("HorizontalPodAutoscaler"):
            if h["spec"]["scaleTargetRef"]["name"] == deployment:
                return max(2, h["spec"].get("minReplicas", 1))
        return 2


class Image:
    """What the Dockerfile's runtime stage puts in the image: its ENV, its WORKDIR and the files
    it copies, here the repository's."""

    def __init__(self, run_dir: str, binary: str):
        text = open(os.path.join(ROOT, "Dockerfile")).read()
        runtime = text.split("AS runtime", 1)[1]
        self.env: dict[str, str] = {}
        for block in re.findall(r"^ENV\s+((?:.*\\\n)*.*)$", runtime, re.M):
            for pair in shlex.split(block.replace("\\\n", " ")):
                k, _, v = pair.partition("=")
                self.env[k] = v
        self.workdir = re.findall(r"^WORKDIR\s+(\S+)", runtime, re.M)[-1]
        self.app = os.path.join(run_dir, "image-app")
        os.makedirs(os.path.join(self.app, "frontend"), exist_ok=True)
        os.symlink(os.path.join(ROOT, "config"), os.path.join(self.app, "config"))
        os.symlink(os.path.join(ROOT, "frontend", "dist"), os.path.join(self.app, "frontend", "dist"))
        self.binary = binary

    def path(self, value: str) -> str:
        return value.replace(self.workdir + "/", self.app + "/") if value.startswith(self.workdir + "/") else value


class Names:
    """Service DNS names → loopback host:port."""

    def __init__(self):
        self.map: dict[tuple[str, int], int] = {}

    def add(self, name: str, port: int, local: int) -> None:
        self.map[(name, port)] = local

    def resolve(self, text: str) -> str:
        for (name, port), local in sorted(self.map.items(), key=lambda kv: -len(kv[0][0])):
            pattern = rf"(?<![\w.-]){re.escape(name)}(\.{NAMESPACE}|\.[a-z-]+)?(\.svc)?(\.cluster\.local)?:{port}\b"
            text = re.sub(pattern, f"localhost:{local}", text)
        return text


class Pod:
    def __init__(self, rehearsal: "Rehearsal", deployment: dict, number: int, ip: str, template: dict | None = None):
        self.r, self.deployment, self.ip = rehearsal, deployment, ip
        self.name = f"{deployment['metadata']['name']}-{number}"
        self.spec = template or deployment["spec"]["template"]["spec"]
        self.container = self.spec["containers"][0]
        self.dir = os.path.join(rehearsal.run_dir, "pods", self.name)
        os.makedirs(self.dir, exist_ok=True)
        self.env, self.ports = self._environment()
        self.proc: subprocess.Popen | None = None
        self.is_ready = False
        self.terminating = False

    def _environment(self) -> tuple[dict[str, str], dict[str, int]]:
        r, c = self.r, self.container
        volumes = {v["name"]: v for v in self.spec.get("volumes") or []}
        # A PersistentVolumeClaim is one directory of the run, shared by every pod that mounts it.
        mounts = {m["mountPath"].rstrip("/"): r.claim_dir(volumes[m["name"]]["persistentVolumeClaim"]["claimName"])
                  if "persistentVolumeClaim" in volumes[m["name"]] else os.path.join(self.dir, "volumes", m["name"])
                  for m in c.get("volumeMounts") or []}

        prefixes = re.compile("|".join(re.escape(m + "/") for m in sorted(mounts, key=len, reverse=True))) if mounts else None

        def in_files(text: str) -> str:
            # A mounted file that names another (DATABASE_URL's sslrootcert) names its copy here,
            # in one pass (a copy's own path may start with another mount's, /tmp).
            return prefixes.sub(lambda m: mounts[m.group(0).rstrip("/")] + "/", text) if prefixes else text

        for m in c.get("volumeMounts") or []:
            v = volumes[m["name"]]
            local = mounts[m["mountPath"].rstrip("/")]
            os.makedirs(local, exist_ok=True)
            if "configMap" in v:
                for key, value in r.manifests.config_map(v["configMap"]["name"]).items():
                    open(os.path.join(local, key), "w").write(value)
            elif "secret" in v or "projected" in v:
                # A Secret volume, or a projected one of Secrets (the Job's roles).
                sources = [{**v["secret"], "name": v["secret"]["secretName"]}] if "secret" in v else \
                    [src["secret"] for src in v["projected"]["sources"] if "secret" in src]
                if "projected" in v and len(sources) != len(v["projected"]["sources"]):
                    raise Failed(f"{self.name}: the projected volume {m['name']} has a source other than a Secret")
                for src in sources:
                    try:
                        data = r.secrets.get(src["name"])
                    except Failed:
                        if src.get("optional"):
                            data = {}
                        else:
                            raise
                    items = src.get("items")
                    missing = [i["key"] for i in items or [] if i["key"] not in data]
                    if missing and not src.get("optional"):
                        raise Failed(f"{self.name}: the Secret {src['name']} has no key {', '.join(missing)} "
                                     "(the kubelet would not start the pod: CreateContainerConfigError)")
                    chosen = {i["path"]: data[i["key"]] for i in items if i["key"] in data} if items else data
                    for key, value in chosen.items():
                        open(os.path.join(local, key), "w").write(in_files(r.names.resolve(value)))
            elif "emptyDir" not in v and "persistentVolumeClaim" not in v:
                raise Failed(f"{self.name}: the volume {m['name']} is of a kind the rehearsal does not make: {v}")

        def local_path(value: str) -> str:
            for mount, local in sorted(mounts.items(), key=lambda kv: -len(kv[0])):
                if value == mount or value.startswith(mount + "/"):
                    return local + value[len(mount):]
            return r.image.path(value)

        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.dir}
        env.update(r.image.env)
        for src in c.get("envFrom") or []:
            if "configMapRef" in src:
                env.update(r.manifests.config_map(src["configMapRef"]["name"]))
            else:
                raise Failed(f"{self.name}: envFrom {src} is not a ConfigMap")
        for e in c.get("env") or []:
            if "value" in e:
                env[e["name"]] = e["value"]
            else:
                raise Failed(f"{self.name}: {e['name']} comes from {e.get('valueFrom')}, not a value")
        env = {k: ":".join(local_path(p) for p in r.names.resolve(v).split(":")) if k == "PAYSITE_SECRETS_DIR"
               else local_path(r.names.resolve(v)) for k, v in env.items()}
        ports: dict[str, int] = {}
        for p in c.get("ports") or []:
            ports[p["name"]] = p["containerPort"]
        for key in ("PAYSITE_ADDR", "PAYSITE_OPS_ADDR"):
            if env.get(key, "").startswith("0.0.0.0:"):
                env[key] = env[key].replace("0.0.0.0", self.ip, 1)
        env["RUST_LOG"] = env.get("RUST_LOG", "info")
        return env, ports

    def command(self) -> list[str]:
        cmd = (self.container.get("command") or []) + (self.container.get("args") or [])
        if cmd[:1] != ["paysite"]:
            raise Failed(f"{self.name}: the command {cmd} does not run paysite")
        return [self.r.image.binary, *cmd[1:]]

    def start(self) -> None:
        self.log = open(os.path.join(self.dir, "log"), "a")
        self.proc = subprocess.Popen(self.command(), env=self.env, cwd=self.r.image.app, stdout=self.log,
                                     stderr=subprocess.STDOUT)

    def probe(self, kind: str) -> bool:
        probe = self.container.get(kind) or {}
        get = probe.get("httpGet")
        if not get or self.proc is None or self.proc.poll() is not None:
            return False
        port = self.ports.get(get["port"], get["port"])
        try:
            conn = http.client.HTTPConnection(self.ip, int(port), timeout=probe.get("timeoutSeconds", 1))
            conn.request("GET", get["path"])
            return 200 <= conn.getresponse().status < 400
        except OSError:
            return False

    def endpoint(self, port_name: str) -> tuple[str, int]:
        return self.ip, self.ports[port_name]

    def scrape(self) -> None:
        """Its /metrics, kept: what it answered, by status, is read after it has gone."""
        if self.proc is None or self.proc.poll() is not None or "ops" not in self.ports:
            return
        try:
            conn = http.client.HTTPConnection(self.ip, self.ports["ops"], timeout=5)
            conn.request("GET", "/metrics")
            self.metrics = conn.getresponse().read().decode()
        except OSError:
            pass

    def answered(self, status: str) -> float:
        """How many requests it answered with `status` (paysite_http_request_duration_seconds)."""
        total = 0.0
        for line in getattr(self, "metrics", "").splitlines():
            if line.startswith("paysite_http_request_duration_seconds_count{") and f'status="{status}"' in line:
                total += float(line.rsplit(" ", 1)[1])
        return total

    def stop(self) -> int | None:
        """preStop, SIGTERM, then SIGKILL after the grace period, as the kubelet does."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.scrape()
        pre = ((self.container.get("lifecycle") or {}).get("preStop") or {}).get("exec", {}).get("command")
        grace = self.spec.get("terminationGracePeriodSeconds", 30)
        if pre and pre[0] == "sleep":
            time.sleep(float(pre[1]))
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


class Deployment:
    def __init__(self, rehearsal: "Rehearsal", manifest: dict, index: int):
        self.r, self.manifest, self.index = rehearsal, manifest, index
        self.name = manifest["metadata"]["name"]
        self.replicas = rehearsal.manifests.min_replicas(self.name)
        self.pods: list[Pod] = []
        self.counter = 0
        svc = next((s for s in rehearsal.manifests.of("Service") if s["metadata"]["name"] == self.name), None)
        self.service_port_name = svc["spec"]["ports"][0]["targetPort"] if svc else None
        self.service = rehearsal.services.get(self.name)
        strategy = (manifest["spec"].get("strategy") or {}).get("rollingUpdate") or {}
        self.max_surge, self.max_unavailable = int(strategy.get("maxSurge", 1)), int(strategy.get("maxUnavailable", 0))

    def new_pod(self) -> Pod:
        self.counter += 1
        pod = Pod(self.r, self.manifest, self.counter, f"127.0.{10 + self.index}.{self.counter}")
        pod.start()
        self.r.all_pods.append(pod)
        return pod

    def ready(self, pod: Pod, timeout: float) -> bool:
        """Waits for the prober to find `pod` ready (its readiness probe, as the kubelet runs it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if pod.is_ready:
                return True
            if pod.proc.poll() is not None:
                return False
            time.sleep(0.1)
        return False

    def probe_all(self) -> None:
        """The kubelet and the endpoints controller: each pod's readiness, then the Service's
        endpoints (ready pods that are not terminating)."""
        for pod in list(self.pods):
            if not pod.terminating:
                pod.is_ready = pod.probe("readinessProbe")
        self.publish_endpoints()

    def publish_endpoints(self) -> None:
        if self.service and self.service_port_name:
            with self.service.lock:
                self.service.endpoints = [p.endpoint(self.service_port_name) for p in self.pods
                                          if p.is_ready and not p.terminating]

    def start_pods(self) -> None:
        for _ in range(self.replicas):
            self.pods.append(self.new_pod())

    def scale_up(self) -> None:
        if not self.pods:
            self.start_pods()
        for pod in self.pods:
            if not self.ready(pod, 120):
                raise Failed(f"{pod.name} never answered its readiness probe; its log: {pod.dir}/log\n"
                             + tail(os.path.join(pod.dir, "log")))

    def rolling_restart(self) -> None:
        """maxSurge new pods at a time, each ready before an old one goes (maxUnavailable 0)."""
        old = list(self.pods)
        while old:
            surge = [self.new_pod() for _ in range(max(1, self.max_surge))]
            self.pods.extend(surge)
            for pod in surge:
                if not self.ready(pod, 120):
                    raise Failed(f"{pod.name} (rollout of {self.name}) never became ready:\n"
                                 + tail(os.path.join(pod.dir, "log")))
            for _ in surge:
                if not old:
                    break
                leaving = old.pop(0)
                leaving.terminating = True
                self.publish_endpoints()
                code = leaving.stop()
                self.pods.remove(leaving)
                if code not in (0, None):
                    raise Failed(f"{leaving.name} exited with {code} on SIGTERM:\n" + tail(os.path.join(leaving.dir, "log")))
        surplus = len(self.pods) - self.replicas
        for pod in self.pods[:surplus]:
            pod.terminating = True
            self.publish_endpoints()
            pod.stop()
        self.pods = self.pods[surplus:] if surplus > 0 else self.pods


def tail(path: str, lines: int = 30) -> str:
    try:
        return "".join(open(path, errors="replace").readlines()[-lines:])
    except OSError:
        return ""


# --- a browser's and a biller's requests, through the gateway's Service -------------------------


class Client:
    """HTTP to the gateway's Service, with the Host of a brand: the Ingress, which terminates
    the browsers' TLS and appends their address to X-Forwarded-For, becomes these headers."""

    def __init__(self, port: int, address: str):
        self.port, self.address = port, address
        self.cookies: dict[str, str] = {}

    def request(self, method: str, host: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, list[str]], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        h = {"Host": host, "X-Forwarded-For": self.address, "X-Forwarded-Proto": "https"}
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        h.update(headers or {})
        conn.request(method, path, body=body, headers=h)
        resp = conn.getresponse()
        data = resp.read()
        got: dict[str, list[str]] = {}
        for k, v in resp.getheaders():
            got.setdefault(k.lower(), []).append(v)
        for c in got.get("set-cookie", []):
            name, _, value = c.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        conn.close()
        return resp.status, got, data

    DOCUMENTS = registered_documents()

    def operation_response(self, host: str, name: str, variables: dict | None = None,
                           headers: dict[str, str] | None = None) -> tuple[int, dict[str, list[str]], bytes]:
        """The front end's operation `name` as its Apollo client sends it: the persisted
        document's hash alone, a query by GET, a mutation by POST."""
        digest, kind = self.DOCUMENTS[name]
        extensions = {"persistedQuery": {"version": 1, "sha256Hash": digest}}
        marked = {"x-paysite-csrf": "1", **(headers or {})}
        if kind == "query":
            query = urllib.parse.urlencode({"operationName": name, "variables": json.dumps(variables or {}),
                                            "extensions": json.dumps(extensions)})
            return self.request("GET", host, f"/graphql?{query}", None, marked)
        body = json.dumps({"operationName": name, "variables": variables or {}, "extensions": extensions}).encode()
        return self.request("POST", host, "/graphql", body, {"content-type": "application/json", **marked})

    def operation_answer(self, host: str, name: str, variables: dict | None = None) -> dict:
        """The whole answer, errors and all."""
        status, _, data = self.operation_response(host, name, variables)
        if status != 200:
            raise Failed(f"{name} on {host}: {status} {data[:300]!r}")
        return json.loads(data)

    def operation(self, host: str, name: str, variables: dict | None = None) -> dict:
        answer = self.operation_answer(host, name, variables)
        if answer.get("errors"):
            raise Failed(f"{name} on {host}: {answer['errors']}")
        return answer["data"]

    def text_answer(self, host: str, query: str) -> dict:
        """A document of the caller's own, POSTed as text."""
        status, _, data = self.request("POST", host, "/graphql", json.dumps({"query": query}).encode(),
                                       {"content-type": "application/json", "x-paysite-csrf": "1"})
        return json.loads(data)


def retried(what: str, fn, failures: list[str]):
    """One retry, as a browser or a biller would; a second failure is counted."""
    try:
        return fn()
    except (Failed, OSError, ValueError) as first:
        time.sleep(0.5)
        try:
            return fn()
        except (Failed, OSError, ValueError) as second:
            failures.append(f"{what}: {second} (first: {first})")
            return None


# --- the rehearsal ---------------------------------------------------------------------------


class Rehearsal:
    def __init__(self, binary: str):
        self.run_dir = tempfile.mkdtemp(prefix="paysite-rehearsal-")
        os.chmod(self.run_dir, 0o755)
        self.binary = binary
        self.services: dict[str, Service] = {}
        self.deployments: list[Deployment] = []
        self.names = Names()
        self.cleanups = []
        self.biller_secrets: dict[str, str] = {}
        self.all_pods: list[Pod] = []

    def claim_dir(self, claim: str) -> str:
        """The directory standing in for the volume of the PersistentVolumeClaim `claim`."""
        self.manifests.named("PersistentVolumeClaim", claim)  # a claim the overlay makes
        path = os.path.join(self.run_dir, "claims", claim)
        os.makedirs(path, exist_ok=True)
        return path

    # Deploy, steps 1-2: render, backing services, Secrets.
    def render(self) -> None:
        out = run(["kubectl", "kustomize", os.path.join(ROOT, "k8s", "overlays", "prod")]).stdout
        docs = [d for d in yaml.safe_load_all(out) if d]
        for d in docs:
            if d.get("kind") == "ConfigMap" and d["metadata"]["name"].startswith("paysite-env"):
                d["data"].update(OPERATOR_ADDRESSES)
        self.manifests = Manifests(docs)
        say(f"rendered k8s/overlays/prod: {len(docs)} objects, "
            f"{len(self.manifests.of('Deployment'))} Deployments, {len(self.manifests.of('Job'))} Job")

    def backing_services(self) -> None:
        self.ca = CA(os.path.join(self.run_dir, "ca"))
        self.secrets = Secrets(os.path.join(self.run_dir, "secrets"))
        pg_cert = self.ca.issue("postgres", ["paysite-db-rw", f"paysite-db-rw.{NAMESPACE}", f"paysite-db-rw.{NAMESPACE}.svc"])
        self.pg = Postgres(os.path.join(self.run_dir, "postgres"), *pg_cert)
        self.cleanups.append(self.pg.stop)
        say(f"  PostgreSQL (TLS only, scram) on 127.0.0.1:{self.pg.port}")
        self.names.add("paysite-db-rw", 5432, self.pg.port)
        # cert-manager: every Certificate of the overlay, by the run's CA.
        for cert in self.manifests.of("Certificate"):
            if cert["spec"].get("isCA"):
                continue
            crt, key = self.ca.issue(cert["metadata"]["name"], cert["spec"].get("dnsNames") or [])
            self.secrets.put(cert["spec"]["secretName"],
                             {"tls.crt": open(crt).read(), "tls.key": open(key).read(), "ca.crt": open(self.ca.crt).read()})
            say(f"  Certificate {cert['metadata']['name']} -> Secret {cert['spec']['secretName']}")
        mq = self.secrets.get("paysite-mq-tls")
        mq_dir = os.path.join(self.run_dir, "mq-tls")
        os.makedirs(mq_dir)
        for k, v in mq.items():
            open(os.path.join(mq_dir, k), "w").write(v)
        self.mq = RabbitMQ(os.path.join(self.run_dir, "rabbitmq"), f"{mq_dir}/tls.crt", f"{mq_dir}/tls.key", f"{mq_dir}/ca.crt")
        self.cleanups.append(self.mq.stop)
        say(f"  RabbitMQ node {self.mq.node}, amqps only, on 127.0.0.1:{self.mq.port}")
        self.names.add("paysite-mq", 5671, self.mq.port)
        collector = self.secrets.get("paysite-collector-tls")
        col_dir = os.path.join(self.run_dir, "collector")
        os.makedirs(col_dir)
        for k, v in collector.items():
            open(os.path.join(col_dir, k), "w").write(v)
        self.collector = Collector(f"{col_dir}/tls.crt", f"{col_dir}/tls.key")
        self.names.add("otel-collector", 4318, self.collector.port)
        # The operators' own Secrets.
        self.secrets.put("paysite-db-app", {
            "username": "paysite", "password": self.pg.password,
            "uri": f"postgresql://paysite:{self.pg.password}@paysite-db-rw.{NAMESPACE}:5432/paysite"})
        self.secrets.put("paysite-db-ca", {"ca.crt": open(self.ca.crt).read()})
        self.secrets.put("paysite-mq-default-user", {"username": self.mq.user, "password": self.mq.password})
        # The Services: a loopback port each.
        for svc in self.manifests.of("Service"):
            name = svc["metadata"]["name"]
            self.services[name] = Service(name)
            for p in svc["spec"]["ports"]:
                self.names.add(name, p["port"], self.services[name].port)

    def run_doc_block(self, marker: str, env: dict[str, str] | None = None) -> str:
        """Runs docs/operations.md's block as written, with the kubectl of the rehearsal.
        Answers what it printed."""
        bin_dir = os.path.join(self.run_dir, "bin")
        requests = os.path.join(self.run_dir, "requests")
        os.makedirs(bin_dir, exist_ok=True)
        os.makedirs(requests, exist_ok=True)
        shim = os.path.join(bin_dir, "kubectl")
        if not os.path.exists(shim):
            open(shim, "w").write(KUBECTL_SHIM)
            os.chmod(shim, 0o755)
        for block in doc_blocks(marker):
            proc = subprocess.Popen(["bash", "-euo", "pipefail", "-c", block],
                                    env=dict(os.environ, **(env or {}), PATH=f"{bin_dir}:{os.environ['PATH']}",
                                             REHEARSE_SECRETS=self.secrets.dir, REHEARSE_REQUESTS=requests),
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            while proc.poll() is None:
                self.serve_requests(requests)
                time.sleep(0.2)
            self.serve_requests(requests)
            output = proc.stdout.read()
            if proc.returncode != 0:
                raise Failed(f"docs/operations.md block `{marker}` failed ({proc.returncode}):\n{output}")
            say(f"  ran docs/operations.md `{marker}`: " + "; ".join(l for l in output.splitlines() if l.strip())[:300])
        return output

    def publish_content(self) -> None:
        """"Publishing content": the operator's file through `paysite publish` in a catalog pod,
        twice (the second writes nothing), then each media file it names uploaded into the
        media volume."""
        first = self.run_doc_block("publish", {"content": CONTENT})
        self.published_at = time.monotonic()
        check("published 4 events (0 unchanged)" in first, "the content's 4 events are published")
        again = self.run_doc_block("publish", {"content": CONTENT})
        check("published 0 events (4 unchanged)" in again, "publishing the same file again writes nothing")
        events = json.load(open(CONTENT))
        video = next(e["payload"]["video"] for e in events if e["type"] == "VideoPublished")
        pack = next(e["payload"] for e in events if e["type"] == "ChannelPackPublished")
        media = re.findall(r"^media: (videos/\S+/(\w+)\.mp4) for video (\S+)$", first, re.M)
        check(sorted(q for _, q, _ in media) == sorted(video["qualities"]),
              f"it names a file to upload for each quality of the video ({', '.join(p for p, _, _ in media)})")
        unlocks = self.manifests.named("Deployment", "unlocks")["spec"]["template"]["spec"]
        claim = next(v["persistentVolumeClaim"]["claimName"] for v in unlocks["volumes"] if "persistentVolumeClaim" in v)
        channel = next(e["payload"] for e in events if e["type"] == "ChannelPublished")
        self.content = {"video_id": video["video_id"], "pack_id": pack["channel_pack_id"], "media": {},
                        "brands": channel["sites"]}
        for path, quality, _ in media:
            # An MP4's first box, then bytes of the run's own: what is served must be this file.
            data = b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2" + os.urandom(256 * 1024)
            target = os.path.join(self.claim_dir(claim), path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            open(target, "wb").write(data)
            self.content["media"][quality] = data
        say(f"  uploaded {len(media)} files into the volume of {claim} (each unlocks pod mounts it read-only)")

    def serve_requests(self, directory: str) -> None:
        for req in sorted(glob.glob(os.path.join(directory, "*.json"))):
            if os.path.exists(req[:-5] + ".done"):
                continue
            request = json.load(open(req))

            def answer(text: str) -> None:
                # Whole or not at all: the shim reads the file as soon as it appears.
                open(req[:-5] + ".tmp", "w").write(text)
                os.replace(req[:-5] + ".tmp", req[:-5] + ".done")

            if "exec" in request:
                answer(json.dumps(self.exec_in(request["exec"], request["command"], req[:-5] + ".stdin")))
                continue
            target = request["restart"]
            try:
                self.restart(target)
                result = "ok"
            except Failed as e:
                result = str(e)
            answer(result)
            if result != "ok":
                raise Failed(result)

    def exec_in(self, target: str, command: list[str], stdin: str) -> dict:
        """`kubectl exec -i deploy/<name> -- <command>`: in a ready pod of the Deployment, with
        its environment and files."""
        name = target.split("/", 1)[1]
        pods = [p for d in self.deployments if d.name == name for p in d.pods if p.is_ready]
        if not pods or command[:1] != ["paysite"]:
            return {"code": 1, "output": f"error: no ready pod of {target} to run {command} in\n"}
        pod = pods[0]
        with open(stdin, "rb") as f:
            out = subprocess.run([self.image.binary, *command[1:]], env=pod.env, stdin=f, capture_output=True,
                                 cwd=self.image.app)
        return {"code": out.returncode, "output": (out.stdout + out.stderr).decode(errors="replace")}

    def restart(self, target: str) -> None:
        if target.startswith("deployment -l"):
            chosen = self.deployments
        else:
            name = target.split("/", 1)[1]
            chosen = [d for d in self.deployments if d.name == name]
            if not chosen:
                raise Failed(f"no Deployment {name}")
        # Every Deployment rolls at once, as `kubectl rollout restart deployment -l ...` makes them.
        errors: list[str] = []

        def roll(d: Deployment) -> None:
            try:
                d.rolling_restart()
            except Failed as e:
                errors.append(str(e))

        started = time.monotonic()
        threads = [threading.Thread(target=roll, args=(d,)) for d in chosen]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise Failed("; ".join(errors))
        say(f"  rolled {', '.join(f'{d.name}×{d.replicas}' for d in chosen)} in {time.monotonic() - started:.0f}s "
            f"(maxSurge {chosen[0].max_surge}, maxUnavailable {chosen[0].max_unavailable}, preStop and SIGTERM each)")

    # Deploy, step 3: the Job, then the Deployments.
    def migration_job(self) -> None:
        job = self.manifests.of("Job")[0]
        deployment = {"metadata": {"name": job["metadata"]["name"]}, "spec": {"template": job["spec"]["template"]}}
        pod = Pod(self, deployment, 1, "127.0.9.1")
        started = time.monotonic()
        pod.start()
        code = pod.proc.wait(job["spec"].get("activeDeadlineSeconds", 900))
        log = tail(os.path.join(pod.dir, "log"), 40)
        check(code == 0, f"the Job {job['metadata']['name']} (`{' '.join(pod.container['command'])}`) completed "
              f"in {time.monotonic() - started:.1f}s with only its own environment: "
              f"{sorted(k for k in pod.env if k not in ('PATH', 'HOME'))}\n{log if code else ''}")
        migrated = [l for l in log.splitlines() if l.startswith("migrated ")]
        services = [d["metadata"]["name"] for d in self.manifests.of("Deployment") if d["metadata"]["name"] != "gateway"]
        check(len(migrated) == len(services), f"it migrated every service's schema and queues ({len(migrated)}): "
              + "; ".join(migrated))
        self.least_privilege(services)

    def least_privilege(self, services: list[str]) -> None:
        """Each schema, its event store with it, is its service's role's; each role reads its own
        event store and is refused every other service's."""
        owners = self.pg.query("select string_agg(distinct n.nspname || '=' || pg_get_userbyid(c.relowner), ',') from "
                               "pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname in ("
                               + ",".join(f"'{s}'" for s in services) + ")").split(",")
        wrong = [o for o in owners if o.split("=")[1] != f"paysite_{o.split('=')[0]}"]
        check(not wrong and len(owners) == len(services),
              f"every table of each service's schema belongs to its role ({', '.join(sorted(owners))})")
        refused = 0
        for service in services:
            url = self.secrets.get(f"paysite-db-{service}")["url"]
            own = self.pg.as_role(url, f"select count(*) from {service}.event")
            if own.returncode != 0:
                raise Failed(f"paysite_{service} cannot read its own event store: {own.stderr.strip()}")
            for other in services:
                if other == service:
                    continue
                out = self.pg.as_role(url, f"select count(*) from {other}.event")
                if out.returncode == 0 or "permission denied" not in out.stderr:
                    raise Failed(f"paysite_{service} read {other}.event: {out.stdout.strip()} {out.stderr.strip()}")
                refused += 1
        say(f"  ok: each role reads its own event store and was refused the {refused} reads of another's "
            "(permission denied for schema)")

    def deployments_up(self) -> None:
        for i, manifest in enumerate(self.manifests.of("Deployment")):
            self.deployments.append(Deployment(self, manifest, i))
        threading.Thread(target=self._probe_forever, daemon=True).start()
        # All at once, as a first `kubectl apply` creates them.
        for d in self.deployments:
            d.start_pods()
        for d in self.deployments:
            d.scale_up()
            say(f"  {d.name}: {len(d.pods)} pods ready ({', '.join(p.ip for p in d.pods)})")

    def _probe_forever(self) -> None:
        # Readiness every second (the manifests' periodSeconds are 5; faster only shortens the run).
        while True:
            for d in list(self.deployments):
                try:
                    d.probe_all()
                except Exception:  # noqa: BLE001 - a pod stopping between the list and its probe
                    pass
            time.sleep(1)

    def stop_all(self) -> None:
        """The end of the run: every process at once, SIGTERM and its grace."""
        pods = [p for p in self.all_pods if p.proc and p.proc.poll() is None]
        for p in pods:
            p.proc.send_signal(signal.SIGTERM)
        for p in pods:
            try:
                p.proc.wait(30)
            except subprocess.TimeoutExpired:
                p.proc.kill()


def build() -> str:
    """The release binary, by the Dockerfile's own `cargo build` line and its feature default."""
    text = open(os.path.join(ROOT, "Dockerfile")).read()
    joined = re.sub(r"\\\n", " ", text)
    line = next(l for l in joined.splitlines() if re.search(r"cargo build .*-p paysite", l) and "install" in l)
    command = re.search(r"(cargo build[^&]*)", line).group(1).strip()
    features = re.search(r'^ARG PAYSITE_FEATURES="([^"]*)"', text, re.M).group(1)
    say(f"building the release binary as the Dockerfile does: {command} (PAYSITE_FEATURES={features!r})")
    env = dict(os.environ, PAYSITE_FEATURES=features)
    started = time.monotonic()
    subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    binary = os.path.join(target, "release", "paysite")
    out = subprocess.run([binary, "--version"], capture_output=True, text=True)
    check(out.returncode == 0 and out.stdout.strip().endswith("(features: none)"),
          f"the release binary carries neither the demo data nor the benchmarks: `paysite --version` says "
          f"{out.stdout.strip()!r}")
    say(f"  built in {time.monotonic() - started:.0f}s: {binary}")
    return binary


# --- the journeys ----------------------------------------------------------------------------


def ccbill_postback(secret: str, signup_id: str | None, site: str, join_option: int | None, email: str | None,
                    subscription_ref: str | None = None, credits: int | None = None,
                    transaction_id: str | None = None, event_type: str | None = None,
                    offered_gems: int | None = None) -> tuple[bytes, str]:
    """A postback as VXNBILL (the CCBill-style scheme) sends it: a new sale, with `credits` an
    up-sale of pay-per-video credits on the member's subscription, or `event_type` another
    event of it (a cancellation; a reactivation with `offered_gems`, a retention offer's gems).
    JSON, signed in `x-biller-signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`."""
    body = json.dumps({
        "eventType": event_type or ("UpSale" if credits else "NewSaleSuccess"),
        "subscriptionId": subscription_ref or f"rh-{uuid.uuid4().hex[:16]}",
        "transactionId": transaction_id or f"rt-{uuid.uuid4().hex[:16]}", "site": site, "joinOptionId": join_option,
        "isTrial": False, "freeLimitedTrial": False, "email": email, "username": None, "reason": None,
        "credits": credits, "retentionOfferName": "rehearsal-stay" if offered_gems else None,
        "offeredGems": offered_gems,
        "passthrough": {"userId": None, "signupId": signup_id, "nats": None},
    }).encode()
    t = int(time.time())
    mac = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return body, f"t={t},v1={mac}"


class Journeys:
    BILLER = "VXNBILL"

    def __init__(self, rehearsal: Rehearsal):
        self.r = rehearsal
        self.gateway = rehearsal.services["gateway"].port
        self.lock = threading.Lock()
        self.sales: list[dict] = []
        self.clients = 0

    def client(self) -> Client:
        with self.lock:
            self.clients += 1
            n = self.clients
        # Each client its own address, as each browser behind the Ingress has.
        return Client(self.gateway, f"198.51.100.{n % 250 + 1}" if n < 250 else f"203.0.113.{n % 250 + 1}")

    def biller_secret(self) -> str:
        return self.r.biller_secrets[self.BILLER]

    def join(self, brand: str, secret: str | None = None) -> dict:
        """The join form, then the biller's postback: a new member. Answers the sale."""
        c = self.client()
        host = f"www.{brand}.com"
        options = c.operation(host, "JoinOptions")["joinOptions"]
        option = next(o for o in options["joinOptions"] if o["kind"] == "member" and self.BILLER in o["paymentOptions"])
        email = f"rehearsal-{uuid.uuid4().hex[:12]}@paysite-rehearsal.net"
        password = f"Rh{uuid.uuid4().hex[:10]}9"
        started = c.operation(host, "Join", {"input": {"email": email, "password": password, "joinOptionId": option["id"],
                                                       "paymentOption": self.BILLER}})["join"]
        ref = f"rh-{uuid.uuid4().hex[:16]}"
        body, signature = ccbill_postback(secret or self.biller_secret(), started["signupId"], options["site"], option["id"],
                                          email, subscription_ref=ref)
        status, _, answer = c.request("POST", host, f"/billers/{self.BILLER}/postback", body,
                                      {"content-type": "application/json", "x-biller-signature": signature})
        if status != 200:
            raise Failed(f"the postback for {email} answered {status}: {answer[:200]!r}")
        sale = {"brand": brand, "email": email, "password": password, "signup_id": started["signupId"],
                "subscription_ref": ref, "site": options["site"], "credits": 0}
        with self.lock:
            self.sales.append(sale)
        return sale

    def buy_credits(self, sale: dict, credits: int, transaction_id: str) -> bool:
        """The biller's up-sale of pay-per-video credits to the member (sent again by a retrying
        biller with the same transaction id: granted once)."""
        c = self.client()
        body, signature = ccbill_postback(self.biller_secret(), None, sale["site"], None, None,
                                          subscription_ref=sale["subscription_ref"], credits=credits,
                                          transaction_id=transaction_id)
        status, _, answer = c.request("POST", f"www.{sale['brand']}.com", f"/billers/{self.BILLER}/postback", body,
                                      {"content-type": "application/json", "x-biller-signature": signature})
        if status != 200:
            raise Failed(f"the credits postback for {sale['email']} answered {status}: {answer[:200]!r}")
        return True

    def send(self, sale: dict, event_type: str, transaction_id: str, **fields) -> None:
        """Another postback of the member's subscription (sent again by a retrying biller with
        the same transaction id: applied once)."""
        c = self.client()
        body, signature = ccbill_postback(self.biller_secret(), None, sale["site"], None, None,
                                          subscription_ref=sale["subscription_ref"], transaction_id=transaction_id,
                                          event_type=event_type, **fields)
        status, _, answer = c.request("POST", f"www.{sale['brand']}.com", f"/billers/{self.BILLER}/postback", body,
                                      {"content-type": "application/json", "x-biller-signature": signature})
        if status != 200:
            raise Failed(f"the {event_type} postback for {sale['email']} answered {status}: {answer[:200]!r}")

    def gems_by_retention(self, sale: dict) -> None:
        """The member cancels and takes the retention offer: a reactivation with 10 gems (the
        price of a pack), its postback sent twice: granted once."""
        self.send(sale, "Cancellation", f"rx-{uuid.uuid4().hex[:16]}")
        # A biller's events are ordered by their signed times, in seconds: the reactivation
        # comes after the cancellation it takes back.
        time.sleep(1.1)
        reactivation = f"rg-{uuid.uuid4().hex[:16]}"
        for _ in range(2):
            self.send(sale, "UserReactivation", reactivation, offered_gems=PACK_GEMS)
        sale["gems"] = sale.get("gems", 0) + PACK_GEMS

    def unlock_and_play(self, sale: dict, c: "Client", wait: float = 60) -> int:
        """The member unlocks the published pack with gems and plays its video: the player's
        media request through the brand host answers the uploaded file. Answers its size."""
        host = f"www.{sale['brand']}.com"
        content = self.r.content
        # The gems arrive by events (subscription, then the wallet), the pack by the catalog's
        # (to unlocks): the member's screen would show the balance and the pack when they have.
        expected = sale.get("gems", 0)
        ready = (f"select (select coalesce(max(w.gems), 0) from wallet.wallet w join subscription.signup s on "
                 f"s.user_id = w.user_id where s.email = '{sale['email']}') >= {expected} and exists (select 1 from "
                 f"unlocks.catalog_channel_pack where channel_pack_id = '{content['pack_id']}')")
        deadline = time.monotonic() + wait
        while self.r.pg.query(ready) != "t":
            if time.monotonic() > deadline:
                gems = self.r.pg.query(f"select coalesce(max(w.gems), 0) from wallet.wallet w join subscription.signup "
                                       f"s on s.user_id = w.user_id where s.email = '{sale['email']}'")
                raise Failed(f"{sale['email']}'s {expected} gems or the published pack did not arrive in {wait:.0f}s "
                             f"(the wallet holds {gems} gems)")
            time.sleep(0.3)
        answer = c.operation_answer(host, "UnlockChannelPack", {"channelPackId": content["pack_id"]})
        codes = [e.get("extensions", {}).get("code") for e in answer.get("errors") or []]
        if codes and codes != ["ALREADY_UNLOCKED"]:
            raise Failed(f"{sale['email']} could not unlock the pack: {answer}")
        if not codes:
            sale["gems"] -= PACK_GEMS
            sale["unlocks"] = sale.get("unlocks", 0) + 1
        tokens = c.operation(host, "VideoTokens", {"videoId": content["video_id"]})["getToken"]
        url = urllib.parse.urlsplit(tokens["p720"]["url"])
        status, headers, body = c.request("GET", host, f"{url.path}?{url.query}")
        if status != 200 or body != content["media"]["p720"]:
            raise Failed(f"{sale['email']}'s player got {status} ({len(body)} bytes, {headers.get('content-type')}) "
                         f"for {url.path}, not the uploaded p720 file")
        return len(body)

    def postback_refused(self, brand: str, secret: str) -> int:
        """A postback signed with `secret` for a join of its own: the status it answers."""
        c = self.client()
        host = f"www.{brand}.com"
        options = c.operation(host, "JoinOptions")["joinOptions"]
        option = next(o for o in options["joinOptions"] if o["kind"] == "member" and self.BILLER in o["paymentOptions"])
        email = f"rehearsal-{uuid.uuid4().hex[:12]}@paysite-rehearsal.net"
        started = c.operation(host, "Join", {"input": {"email": email, "password": "Rhrefused1x",
                                                       "joinOptionId": option["id"], "paymentOption": self.BILLER}})["join"]
        body, signature = ccbill_postback(secret, started["signupId"], options["site"], option["id"], email)
        status, _, _ = c.request("POST", host, f"/billers/{self.BILLER}/postback", body,
                                 {"content-type": "application/json", "x-biller-signature": signature})
        if status == 200:
            with self.lock:
                self.sales.append({"brand": brand, "email": email, "password": "Rhrefused1x",
                                   "signup_id": started["signupId"], "credits": 0})
        return status

    def sign_in(self, sale: dict, wait: float = 0) -> Client:
        """The members host's form, then the brand's callback: a session on the brand host."""
        deadline = time.monotonic() + wait
        while True:
            c = self.client()
            brand_host, members = f"www.{sale['brand']}.com", f"members.{sale['brand']}.com"
            uri = f"https://{brand_host}/"
            status, _, page = c.request("GET", members, "/oidc/login?" + urllib.parse.urlencode({"uri": uri}))
            if status != 200:
                raise Failed(f"the sign-in form answered {status}")
            csrf = re.search(rb'name="csrf" value="([^"]+)"', page).group(1).decode()
            form = urllib.parse.urlencode({"username": sale["email"], "password": sale["password"], "uri": uri,
                                           "csrf": csrf}).encode()
            status, headers, page = c.request("POST", members, "/oidc/login", form,
                                              {"content-type": "application/x-www-form-urlencoded"})
            if status == 303:
                break
            if time.monotonic() > deadline:
                raise Failed(f"{sale['email']} could not sign in: {status} {page[:200]!r}")
            time.sleep(0.5)
        location = urllib.parse.urlsplit(headers["location"][0])
        status, _, _ = c.request("GET", location.netloc, f"{location.path}?{location.query}")
        if status != 302:
            raise Failed(f"the callback on {location.netloc} answered {status}")
        profile = c.operation(brand_host, "AccountPage")["findOneUserProfile"]
        if profile["email"] != sale["email"] or not profile["subscription"]["active"]:
            raise Failed(f"{sale['email']} signed in as {profile}")
        return c


class Load:
    """A bounded load while pods roll: joins paid by postbacks, and sign-ins of those members."""

    def __init__(self, journeys: Journeys):
        self.j = journeys
        self.stop = threading.Event()
        self.failures: list[str] = []
        self.done = {"sales": 0, "sign-ins": 0, "credit purchases": 0, "pack unlocks": 0}
        self.threads = [threading.Thread(target=self._work, args=(i,), daemon=True) for i in range(LOAD_CLIENTS)]

    def _work(self, i: int) -> None:
        while not self.stop.is_set():
            brand = BRANDS[i % len(BRANDS)]
            sale = retried(f"a sale on {brand}", lambda: self.j.join(brand), self.failures)
            if sale:
                self.done["sales"] += 1
                session = retried(f"{sale['email']} signs in", lambda: self.j.sign_in(sale, wait=30), self.failures)
                if session:
                    self.done["sign-ins"] += 1
                # Credits bought, the postback sent twice (a biller's retry): granted once.
                transaction = f"rc-{uuid.uuid4().hex[:16]}"
                sent = [retried(f"credits for {sale['email']}", lambda: self.j.buy_credits(sale, 5, transaction),
                                self.failures) for _ in range(2)]
                if any(sent):
                    sale["credits"] += 5
                    self.done["credit purchases"] += 1
                # Gems from a retention offer (its postback sent twice), the pack unlocked with
                # them and its video played.
                if session and sale["brand"] in self.j.r.content["brands"] and retried(f"gems for {sale['email']}", lambda: self.j.gems_by_retention(sale) or True,
                                       self.failures):
                    if retried(f"{sale['email']} unlocks the pack and plays", lambda: self.j.unlock_and_play(sale, session),
                               self.failures):
                        self.done["pack unlocks"] += 1
            time.sleep(0.2)

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for t in self.threads:
            t.join(120)


def invariants(r: Rehearsal, journeys: Journeys) -> None:
    emails = [s["email"] for s in journeys.sales]
    quoted = ",".join(f"'{e}'" for e in emails)
    approved = int(r.pg.query(f"select count(*) from subscription.signup where email in ({quoted}) and status = 'approved'"))
    check(approved == len(emails), f"every sale ({len(emails)}) is approved once")
    doubles = r.pg.query(f"select count(*) from (select email from subscription.account where email in ({quoted}) "
                         "group by email having count(*) <> 1) d")
    missing = r.pg.query(f"select {len(emails)} - count(distinct email) from subscription.account where email in ({quoted})")
    check(doubles == "0" and missing == "0", "every sale has exactly one account")
    profiles = r.pg.query(f"select count(*) from profile.user_profile where email in ({quoted})")
    check(int(profiles) == len(emails), f"and exactly one user profile ({profiles})")
    off = r.pg.query(
        "select count(*) from wallet.wallet w where w.gems <> coalesce((select sum(case entry_type when 'grant' then amount "
        "else -amount end) from wallet.ledger_entry l where l.user_id = w.user_id and l.currency = 'gems'), 0) "
        "or w.credits <> coalesce((select sum(case entry_type when 'grant' then amount else -amount end) "
        "from wallet.ledger_entry l where l.user_id = w.user_id and l.currency = 'credits'), 0)")
    wallets = r.pg.query("select count(*) from wallet.wallet")
    entries = r.pg.query("select count(*) from wallet.ledger_entry")
    check(off == "0" and int(wallets) > 0, f"every ledger equals its balance ({wallets} wallets, {entries} entries)")
    # Every member holds the credits bought, once: none lost, none doubled by a biller's retry.
    expected = ",".join(f"('{s['email']}', {s['credits']})" for s in journeys.sales)
    sql = (f"select count(*) from (values {expected}) e(email, credits) join subscription.signup s on s.email = e.email "
           "left join wallet.wallet w on w.user_id = s.user_id where coalesce(w.credits, 0) <> e.credits")
    deadline = time.monotonic() + 60
    while (wrong := r.pg.query(sql)) != "0" and time.monotonic() < deadline:
        time.sleep(1)
    bought = sum(s["credits"] for s in journeys.sales)
    check(wrong == "0", f"every member holds exactly the credits bought ({bought} credits over "
          f"{sum(1 for s in journeys.sales if s['credits'])} members, each postback sent twice)")
    # Gems: granted once per reactivation though sent twice, spent once per pack unlocked.
    gifted = [s for s in journeys.sales if "gems" in s]
    expected = ",".join(f"('{s['email']}', {s['gems']}, {s.get('unlocks', 0)})" for s in gifted)
    sql = (f"select count(*) from (values {expected}) e(email, gems, unlocks) join subscription.signup s on "
           "s.email = e.email left join wallet.wallet w on w.user_id = s.user_id where coalesce(w.gems, 0) <> e.gems "
           "or (select count(*) from unlocks.channel_pack_unlock u where u.user_id = s.user_id and u.forfeited_at "
           "is null) <> e.unlocks")
    deadline = time.monotonic() + 60
    while gifted and (wrong := r.pg.query(sql)) != "0" and time.monotonic() < deadline:
        time.sleep(1)
    unlocked = sum(s.get("unlocks", 0) for s in gifted)
    check(not gifted or wrong == "0", f"every member holds exactly the gems given less those spent, and one unlock per "
          f"pack ({len(gifted)} members given {PACK_GEMS} gems each, the postback sent twice; {unlocked} packs unlocked)")


def dlq_empty(r: Rehearsal, pod_env: dict[str, str]) -> None:
    out = subprocess.run([r.image.binary, "dlq", "list"], env=pod_env, capture_output=True, text=True, cwd=r.image.app)
    check(out.returncode == 0 and "0 dead letters" in out.stderr, f"`paysite dlq list` answers: {out.stderr.strip()[-200:]}")


def hold(r: Rehearsal, seconds: float) -> None:
    """REHEARSE_HOLD=<seconds>: the stack stays up after a pass, behind a stand-in for the
    Ingress on 127.0.0.1:<port> (TLS for every brand's hosts with the run's CA, the forwarded
    headers the gateway trusts), to walk it in a browser that maps the hosts there."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    hosts = [f"{p}.{os.path.basename(f)[:-5]}.com" for f in sorted(glob.glob(os.path.join(ROOT, "k8s", "base",
                                                                                          "tenants", "*.json")))
             for p in ("www", "members")]
    crt, key = r.ca.issue("ingress", hosts)
    gateway = r.services["gateway"].port

    class Ingress(BaseHTTPRequestHandler):
        def _forward(self):
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            conn = http.client.HTTPConnection("127.0.0.1", gateway, timeout=30)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("x-forwarded-for", "x-forwarded-proto")}
            headers.update({"X-Forwarded-For": self.client_address[0], "X-Forwarded-Proto": "https"})
            conn.request(self.command, self.path, body=body or None, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
            self.send_response(resp.status)
            for k, v in resp.getheaders():
                if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                    self.send_header(k, v)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _forward

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("REHEARSE_INGRESS_PORT", "8443"))), Ingress)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(crt, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    say(f"holding the stack for {seconds:.0f}s: https://<host>:{server.server_port}/ (CA {r.ca.crt}) for "
        f"{len(hosts)} hosts; the gateway's Service is 127.0.0.1:{gateway}")
    time.sleep(seconds)
    server.shutdown()


def main() -> int:
    say("the production rehearsal of k8s/overlays/prod (docs/operations.md, \"Rehearsing a release\")")
    say("substitutions: " + " | ".join(line.strip(" -") for line in __doc__.split("Only these substitutions are made")[1]
                                     .split("\n")[1:] if line.strip()))
    if not os.path.exists(os.path.join(ROOT, "frontend", "dist", "index.html")):
        say("FAILED: frontend/dist/index.html is missing: the image's SPA (`npm run build` in frontend/)")
        return 1
    binary = build()
    r = Rehearsal(binary)
    r.image = Image(r.run_dir, binary)
    say(f"the run's directory: {r.run_dir}")
    code = 1
    try:
        step(0, "render the overlay, start the backing services (Deploy, step 2)")
        r.render()
        r.backing_services()
        step(0, "make the Secrets with docs/operations.md's commands (\"Secrets\")")
        r.biller_secrets = {b: base64.b64encode(os.urandom(24)).decode() for b in
                            json.load(open(os.path.join(ROOT, "config", "billing", "billing.json")))["billers"]}
        r.run_doc_block("connections")
        r.run_doc_block("database-roles")
        roles = r.pg.managed_roles(r.manifests.named("Cluster", "paysite-db"), r.secrets)
        say(f"  CloudNativePG's managed roles, from their Secrets: {', '.join(roles)}")
        r.run_doc_block("secrets", {f"{b}_SECRET": v for b, v in r.biller_secrets.items()})
        step(1, "the migration Job completes")
        r.migration_job()
        step(2, "every process answers its readiness probe on its ops port")
        r.deployments_up()
        check(all(p.probe("readinessProbe") for d in r.deployments for p in d.pods),
              f"{sum(len(d.pods) for d in r.deployments)} pods ready: "
              + ", ".join(f"{d.name}×{len(d.pods)}" for d in r.deployments))
        journeys = Journeys(r)
        step(3, "the brand hosts answer through the gateway")
        for brand in BRANDS:
            c = journeys.client()
            for host in (f"www.{brand}.com", f"members.{brand}.com"):
                status, _, page = c.request("GET", host, "/")
                check(status == 200 and b'<div id="root"' in page, f"https://{host}/ answers {status} with the SPA's page")
        step("3a", "GraphQL executes the front end's documents only, and a visitor's answer is public")
        visitor, www = journeys.client(), f"www.{BRANDS[0]}.com"
        own = visitor.text_answer(www, "{ tenantConfig }")
        check([e.get("extensions", {}).get("code") for e in own.get("errors", [])] == ["DOCUMENT_NOT_REGISTERED"],
              "a document of the caller's own is refused with DOCUMENT_NOT_REGISTERED")
        listing = {"page": 1, "size": 24}
        # Asked more often than there are gateway pods, so that every replica keeps it.
        answers = [visitor.operation_response(www, "ChannelListing", listing) for _ in range(6)]
        status, headers, body = answers[-1]
        cache_control = headers.get("cache-control", [""])[0]
        check(status == 200 and cache_control.startswith("public, max-age=") and "etag" in headers
              and headers.get("vary") == ["cookie"],
              f"a visitor's ChannelListing (GET by hash) answers {status}, {cache_control}, "
              f"ETag {headers.get('etag', ['-'])[0]}, Vary {headers.get('vary', ['-'])[0]}")
        again = visitor.operation_response(www, "ChannelListing", listing, {"if-none-match": headers["etag"][0]})
        check(again[0] == 304 and again[2] == b"", f"revalidated by its ETag: {again[0]}, no body")
        check(b"Example Studio" not in body, "the listing has no Example Studio yet")
        step("3b", "the operator publishes the content and uploads its media (\"Publishing content\")")
        r.publish_content()
        fresh = visitor.operation_response(www, "ChannelListing", listing)
        while b"Example Studio" not in fresh[2] and time.monotonic() - r.published_at < 10:
            time.sleep(0.02)
            fresh = visitor.operation_response(www, "ChannelListing", listing)
        took = time.monotonic() - r.published_at
        later = [visitor.operation_response(www, "ChannelListing", listing)[2] for _ in range(6)]
        check(b"Example Studio" in fresh[2] and all(b"Example Studio" in b for b in later),
              f"every gateway pod's kept listing shows the published channel, {took:.2f}s after `paysite publish` "
              f"returned (the catalog's events on each pod's own queue)")
        step(4, "a postback signed with the production biller secret creates a member")
        sale = journeys.join(BRANDS[0])
        step(5, "that member signs in on a brand host and plays a video")
        session = journeys.sign_in(sale, wait=30)  # raises, saying why, unless the session reads this member's profile
        say(f"  ok: {sale['email']} signed in on www.{sale['brand']}.com and reads their profile")
        journeys.gems_by_retention(sale)
        played = journeys.unlock_and_play(sale, session)
        say(f"  ok: given {PACK_GEMS} gems by a retention offer, unlocked the published pack and played its video "
            f"(p720, {played} bytes, the uploaded file, through the brand host)")
        job_env = Pod(r, {"metadata": {"name": "paysite-migrate-check"}, "spec": {"template": r.manifests.of("Job")[0]["spec"]["template"]}}, 2, "127.0.9.2").env
        step(6, "`paysite seed` is refused")
        out = subprocess.run([binary, "seed"], env=job_env, capture_output=True, text=True, cwd=r.image.app)
        check(out.returncode != 0 and ("refuses" in out.stderr or "without the demo data" in out.stderr),
              f"`paysite seed` exits {out.returncode}: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else ''}")
        step(7, "`paysite dlq list` answers")
        dlq_empty(r, job_env)
        step(8, "a rolling restart of every Deployment under load")
        with Load(journeys) as load:
            time.sleep(2)
            r.restart("deployment -l app.kubernetes.io/part-of=paysite")
            time.sleep(2)
        check(not load.failures, f"no request failed beyond one retry ({load.done['sales']} sales, {load.done['credit purchases']} credit purchases, "
              f"{load.done['sign-ins']} sign-ins, {load.done['pack unlocks']} pack unlocks and plays during the rollout)" + ("\n" + "\n".join(load.failures[:10]) if load.failures else ""))
        step(9, "the service key rotates to a next key (docs/operations.md, \"Rotating the service key\")")
        with Load(journeys) as load:
            r.run_doc_block("service-key-rotation")
        check(not load.failures, f"no call refused between processes during the three restarts "
              f"({load.done['sales']} sales, {load.done['sign-ins']} sign-ins)" + ("\n" + "\n".join(load.failures[:10]) if load.failures else ""))
        for d in r.deployments:
            for p in d.pods:
                p.scrape()
        refused = {p.name: p.answered("401") for p in r.all_pods
                   if p.deployment["metadata"]["name"] != "gateway" and p.answered("401")}
        scraped = sum(1 for p in r.all_pods if getattr(p, "metrics", ""))
        check(not refused, f"no internal API answered 401 during the rotation ({scraped} pods' metrics read)"
              + (f": {refused}" if refused else ""))
        step(10, f"a biller's secret rotates ({Journeys.BILLER}, docs/operations.md, \"Rotating a biller's secret\")")
        old, new = r.biller_secrets[Journeys.BILLER], base64.b64encode(os.urandom(24)).decode()
        r.run_doc_block("biller-rotation-1", {"NEW": new, "BILLER": Journeys.BILLER})
        check(journeys.postback_refused(BRANDS[1], old) == 200 and journeys.postback_refused(BRANDS[1], new) == 200,
              "during the window, postbacks signed with the current and the next secret both verify")
        r.run_doc_block("biller-rotation-3", {"NEW": new, "BILLER": Journeys.BILLER})
        r.biller_secrets[Journeys.BILLER] = new
        status = journeys.postback_refused(BRANDS[1], old)
        check(status in (401, 403), f"after it, the old secret is refused ({status})")
        check(journeys.postback_refused(BRANDS[1], new) == 200, "and the new one verifies")
        step(11, "the money holds")
        time.sleep(3)
        invariants(r, journeys)
        dlq_empty(r, job_env)
        say(f"the rehearsal passed in {time.monotonic() - STARTED:.0f}s")
        if os.environ.get("REHEARSE_HOLD"):
            hold(r, float(os.environ["REHEARSE_HOLD"]))
        code = 0
    except Failed as e:
        say(f"FAILED: {e}")
    except Exception as e:  # noqa: BLE001
        import traceback
        traceback.print_exc()
        say(f"FAILED: {e!r}")
    finally:
        r.stop_all()
        for cleanup in reversed(r.cleanups):
            cleanup()
        if code == 0 and not os.environ.get("REHEARSE_KEEP"):
            shutil.rmtree(r.run_dir, ignore_errors=True)
        else:
            say(f"logs kept in {r.run_dir}/pods/*/log")
    return code


if __name__ == "__main__":
    sys.exit(main())
