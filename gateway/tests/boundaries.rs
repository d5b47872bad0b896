//! The boundaries between the services: the gateway and the services know one
//! another only through contracts (`services/<service>/contract`: wire types and a typed
//! client, no sqlx, no lapin). Read from the manifests, so a new dependency on a service's
//! internals fails here, not in review. The cli runs every service in one process and may
//! depend on them all; the biller sandbox stands in for the billers and signs as the
//! subscription service does, so it is left out too. Tests (dev-dependencies) may run any
//! service.

use std::path::{Path, PathBuf};

const SERVICES: [&str; 6] = ["catalog", "profile", "subscription", "unlocks", "wallet", "deals"];
/// What a contract never pulls: the database and the broker.
const STORAGE: [&str; 2] = ["sqlx", "lapin"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// One dependency of a manifest's `[dependencies]`: its name and the rest of its line.
#[derive(Debug)]
struct Dependency {
    name: String,
    spec: String,
}

struct Manifest {
    path: PathBuf,
    text: String,
}

impl Manifest {
    fn read(relative: &str) -> Manifest {
        let path = root().join(relative);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Manifest { path, text }
    }

    /// The lines of the table `[name]`, comments and blank lines left out.
    fn table(&self, name: &str) -> Vec<&str> {
        let header = format!("[{name}]");
        let mut lines = self.text.lines().skip_while(|l| l.trim() != header);
        lines.next();
        lines
            .take_while(|l| !l.trim_start().starts_with('['))
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    }

    /// The normal dependencies (not dev-, not build-).
    fn dependencies(&self) -> Vec<Dependency> {
        self.table("dependencies")
            .into_iter()
            .filter_map(|line| {
                let (key, spec) = line.split_once('=')?;
                let name = key.trim().trim_end_matches(".workspace").trim().to_owned();
                Some(Dependency { name, spec: spec.trim().to_owned() })
            })
            .collect()
    }

    /// The features that turn on the optional dependency `name` (`dep:name`).
    fn features_enabling(&self, name: &str) -> Vec<String> {
        let needle = format!("\"dep:{name}\"");
        self.table("features")
            .into_iter()
            .filter(|l| l.contains(&needle))
            .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim().to_owned()))
            .collect()
    }
}

fn is_service(name: &str) -> bool {
    SERVICES.contains(&name)
}

#[test]
fn the_gateway_depends_on_contracts_never_on_a_service() {
    let gateway = Manifest::read("gateway/Cargo.toml");
    let deps = gateway.dependencies();
    let internals: Vec<&str> = deps.iter().map(|d| d.name.as_str()).filter(|n| is_service(n)).collect();
    assert!(
        internals.is_empty(),
        "{}: depends on service crates {internals:?}; use their contracts",
        gateway.path.display()
    );
    for service in SERVICES {
        let contract = format!("{service}-contract");
        assert!(deps.iter().any(|d| d.name == contract), "the gateway calls {service} through {contract}");
    }
}

#[test]
fn a_service_depends_on_another_only_through_its_contract() {
    for service in SERVICES {
        let manifest = Manifest::read(&format!("services/{service}/Cargo.toml"));
        assert!(
            manifest.dependencies().iter().any(|d| d.name == format!("{service}-contract")),
            "{service} keeps its wire types and client in its contract"
        );
        for dep in manifest.dependencies().iter().filter(|d| is_service(&d.name) && d.name != service) {
            // A benchmark may start another service in process; the service itself may not use it.
            let only_for_the_benchmark = dep.spec.contains("optional = true")
                && manifest.features_enabling(&dep.name).iter().all(|f| f == "bench");
            assert!(
                only_for_the_benchmark,
                "{}: {service} depends on the {} service's crate; use {}-contract",
                manifest.path.display(),
                dep.name,
                dep.name
            );
        }
    }
}

#[test]
fn a_contract_has_no_database_broker_or_service_in_it() {
    for service in SERVICES {
        let manifest = Manifest::read(&format!("services/{service}/contract/Cargo.toml"));
        for dep in manifest.dependencies() {
            assert!(
                !is_service(&dep.name) && !STORAGE.contains(&dep.name.as_str()),
                "{}: a contract may not depend on {}",
                manifest.path.display(),
                dep.name
            );
            assert!(
                !dep.name.ends_with("-contract"),
                "{}: a contract stands alone (it depends on {})",
                manifest.path.display(),
                dep.name
            );
            if dep.name == "runtime" {
                assert!(
                    dep.spec.contains("default-features = false"),
                    "{}: runtime without its `store` feature (sqlx, lapin)",
                    manifest.path.display()
                );
            }
        }
    }
}

/// The rule above holds only if it reads the manifests as they are: a service listed here
/// must be a workspace member, with its contract beside it.
#[test]
fn every_service_and_contract_is_a_workspace_member() {
    let workspace = Manifest::read("Cargo.toml");
    for service in SERVICES {
        for member in [format!("\"services/{service}\""), format!("\"services/{service}/contract\"")] {
            assert!(workspace.text.contains(&member), "the workspace lists {member}");
        }
    }
}
