//! `cargo xtask deps`: the architecture check.
//!
//! Three rules from `docs/architecture.md` (which mirrors DESIGN.md's table):
//! 1. a `tass-*` crate depends only on the `tass-*` crates its row allows;
//! 2. the allowed relation and the actual one are acyclic;
//! 3. a crate's `lib.rs` makes nothing public but `pub mod api`.
//!
//! The check is a pure function of (metadata, table, lib.rs sources) so tests can
//! feed it a doctored copy of the workspace metadata and watch it fail.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use petgraph::algo::toposort;
use petgraph::graphmap::DiGraphMap;

/// The "may use" table: crate short name (`symbolic`) -> crates it may use.
pub type AllowedUses = BTreeMap<String, BTreeSet<String>>;

/// One broken rule, phrased for the person who has to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    ForbiddenEdge {
        from: String,
        to: String,
        kind: String,
    },
    UnknownCrate {
        name: String,
    },
    Cycle {
        in_table: bool,
        members: Vec<String>,
    },
    PublicItem {
        krate: String,
        file: PathBuf,
        line: usize,
        text: String,
    },
    MissingApi {
        krate: String,
        file: PathBuf,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::ForbiddenEdge { from, to, kind } => write!(
                f,
                "forbidden edge: tass-{from} -> tass-{to} ({kind} dependency). \
                 The table in docs/architecture.md does not let `{from}` use `{to}`; \
                 remove the dependency from crates/{from}/Cargo.toml, or change the table \
                 (and DESIGN.md) and say why"
            ),
            Violation::UnknownCrate { name } => write!(
                f,
                "crate `{name}` is in the workspace but has no row in the table of \
                 docs/architecture.md; add one"
            ),
            Violation::Cycle { in_table, members } => write!(
                f,
                "cycle in the {} uses relation involving: {}",
                if *in_table {
                    "allowed (table)"
                } else {
                    "actual"
                },
                members.join(", ")
            ),
            Violation::PublicItem {
                krate,
                file,
                line,
                text,
            } => write!(
                f,
                "{}:{line}: tass-{krate} makes `{text}` public; a crate's lib.rs may only \
                 say `pub mod api;` (re-export from api instead)",
                file.display()
            ),
            Violation::MissingApi { krate, file } => {
                write!(f, "{}: tass-{krate} has no `pub mod api;`", file.display())
            }
        }
    }
}

/// Reads the table from the marked section of `docs/architecture.md`: rows of the form
/// `| crate | a, b, c |` (or `—` for none) between the `<!-- deps-table -->` markers.
pub fn parse_table(markdown: &str) -> Result<AllowedUses, String> {
    let mut inside = false;
    let mut table = AllowedUses::new();
    for line in markdown.lines() {
        let trimmed = line.trim();
        if trimmed == "<!-- deps-table -->" {
            inside = true;
            continue;
        }
        if trimmed == "<!-- /deps-table -->" {
            break;
        }
        if !inside || !trimmed.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = trimmed
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if cells.len() != 2 || cells[0] == "crate" || cells[0].starts_with("---") {
            continue;
        }
        let uses = cells[1]
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "—" && *s != "-")
            .map(String::from)
            .collect();
        table.insert(cells[0].to_string(), uses);
    }
    if table.is_empty() {
        return Err("no dependency table found between <!-- deps-table --> markers".into());
    }
    Ok(table)
}

/// The `tass-*` packages of a `cargo metadata` document and their `tass-*` dependencies,
/// as (short name, manifest dir, [(dependency short name, kind)]).
pub struct WorkspaceCrate {
    pub name: String,
    pub dir: PathBuf,
    pub deps: Vec<(String, String)>,
}

pub fn workspace_crates(metadata: &serde_json::Value) -> Result<Vec<WorkspaceCrate>, String> {
    let packages = metadata["packages"]
        .as_array()
        .ok_or("cargo metadata output has no `packages` array")?;
    let mut crates = Vec::new();
    for package in packages {
        let Some(name) = package["name"]
            .as_str()
            .and_then(|n| n.strip_prefix("tass-"))
        else {
            continue;
        };
        let manifest = package["manifest_path"]
            .as_str()
            .ok_or("package without manifest_path")?;
        let dir = Path::new(manifest)
            .parent()
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let mut deps = Vec::new();
        for dep in package["dependencies"].as_array().into_iter().flatten() {
            if let Some(target) = dep["name"].as_str().and_then(|n| n.strip_prefix("tass-")) {
                let kind = dep["kind"].as_str().unwrap_or("normal").to_string();
                deps.push((target.to_string(), kind));
            }
        }
        crates.push(WorkspaceCrate {
            name: name.to_string(),
            dir,
            deps,
        });
    }
    crates.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(crates)
}

/// Checks rules 1 and 2 on the table and the crates' declared dependencies.
pub fn check_edges(table: &AllowedUses, crates: &[WorkspaceCrate]) -> Vec<Violation> {
    let mut violations = Vec::new();
    if let Some(members) = find_cycle(
        table
            .iter()
            .flat_map(|(from, tos)| tos.iter().map(move |to| (from.as_str(), to.as_str()))),
    ) {
        violations.push(Violation::Cycle {
            in_table: true,
            members,
        });
    }
    for krate in crates {
        let Some(allowed) = table.get(&krate.name) else {
            violations.push(Violation::UnknownCrate {
                name: krate.name.clone(),
            });
            continue;
        };
        for (to, kind) in &krate.deps {
            if !allowed.contains(to) {
                violations.push(Violation::ForbiddenEdge {
                    from: krate.name.clone(),
                    to: to.clone(),
                    kind: kind.clone(),
                });
            }
        }
    }
    let actual = crates.iter().flat_map(|c| {
        c.deps
            .iter()
            .map(move |(to, _)| (c.name.as_str(), to.as_str()))
    });
    if let Some(members) = find_cycle(actual) {
        violations.push(Violation::Cycle {
            in_table: false,
            members,
        });
    }
    violations
}

fn find_cycle<'a>(edges: impl Iterator<Item = (&'a str, &'a str)>) -> Option<Vec<String>> {
    let graph: DiGraphMap<&str, ()> = DiGraphMap::from_edges(edges);
    match toposort(&graph, None) {
        Ok(_) => None,
        Err(cycle) => {
            // Report the strongly connected component that holds the offending node.
            let start = cycle.node_id();
            let component = petgraph::algo::tarjan_scc(&graph)
                .into_iter()
                .find(|scc| scc.contains(&start))
                .unwrap_or_else(|| vec![start]);
            let mut members: Vec<String> = component.iter().map(|s| s.to_string()).collect();
            members.sort();
            Some(members)
        }
    }
}

/// Checks rule 3 on one crate's `lib.rs` text.
pub fn check_lib_rs(krate: &str, file: &Path, source: &str) -> Vec<Violation> {
    let mut violations = Vec::new();
    let mut has_api = false;
    let code = strip_comments_and_strings(source);
    let mut depth = 0i32;
    for (index, line) in code.lines().enumerate() {
        let at_top = depth == 0;
        let trimmed = line.trim();
        if at_top {
            let normalized: String = trimmed.split_whitespace().collect::<Vec<_>>().join(" ");
            if normalized == "pub mod api;" {
                has_api = true;
            } else if is_public(trimmed) || trimmed.starts_with("#[macro_export") {
                violations.push(Violation::PublicItem {
                    krate: krate.to_string(),
                    file: file.to_path_buf(),
                    line: index + 1,
                    text: trimmed.to_string(),
                });
            }
        }
        depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
    }
    if !has_api {
        violations.push(Violation::MissingApi {
            krate: krate.to_string(),
            file: file.to_path_buf(),
        });
    }
    violations
}

/// `pub` but not a restricted visibility such as `pub(crate)`.
fn is_public(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("pub") else {
        return false;
    };
    let rest = rest.trim_start();
    !rest.starts_with('(') && (line[3..].starts_with(char::is_whitespace))
}

/// Blanks out comments and string/char literal contents, keeping line structure, so
/// the line scanner never mistakes `"pub fn"` in a doc example for code.
fn strip_comments_and_strings(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                if bytes[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else if c == b'"' {
            out.push('"');
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                if bytes[i] == b'\\' {
                    i += 1;
                } else if bytes[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            out.push('"');
            i += 1;
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

/// Runs every rule on a workspace described by `metadata`, with `table`.
pub fn check_workspace(
    metadata: &serde_json::Value,
    table: &AllowedUses,
) -> Result<Vec<Violation>, String> {
    let crates = workspace_crates(metadata)?;
    let mut violations = check_edges(table, &crates);
    for krate in &crates {
        let lib = krate.dir.join("src/lib.rs");
        let source = std::fs::read_to_string(&lib)
            .map_err(|e| format!("cannot read {}: {e}", lib.display()))?;
        violations.extend(check_lib_rs(&krate.name, &lib, &source));
    }
    for name in table.keys() {
        if !crates.iter().any(|c| &c.name == name) {
            return Err(format!(
                "the table names crate `{name}`, but the workspace has no package tass-{name}"
            ));
        }
    }
    Ok(violations)
}

/// `cargo metadata` for the workspace at `root`.
pub fn load_metadata(root: &Path) -> Result<serde_json::Value, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    serde_json::from_slice(&output.stdout).map_err(|e| format!("bad cargo metadata JSON: {e}"))
}

/// The repository root (the workspace holding xtask).
///
/// Taken from `CARGO_MANIFEST_DIR` as `cargo run` sets it when xtask starts, not
/// as it was when xtask was compiled: cargo reuses a build of the same sources from
/// another checkout that shares the target directory, and the compile-time path
/// would then name that other checkout (its manifest, its sources).
pub fn repo_root() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    manifest_dir
        .parent()
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

/// Compares our table with DESIGN.md's when the shared specification is beside the
/// checkout; a difference is reported, since the two should move together.
pub fn compare_with_design(table: &AllowedUses, root: &Path) -> Option<String> {
    let design = std::fs::read_to_string(root.join("../shared/DESIGN.md")).ok()?;
    let mut wrapped = String::from("<!-- deps-table -->\n");
    let mut in_table = false;
    for line in design.lines() {
        if line.starts_with("| crate | may use |") {
            in_table = true;
        }
        if in_table {
            if !line.starts_with('|') {
                break;
            }
            wrapped.push_str(line);
            wrapped.push('\n');
        }
    }
    let design_table = parse_table(&wrapped).ok()?;
    (design_table != *table).then(|| {
        "note: the table in docs/architecture.md differs from ../shared/DESIGN.md's".to_string()
    })
}

/// The whole command; returns the process exit code.
pub fn run() -> i32 {
    let root = repo_root();
    let result = (|| {
        let architecture = root.join("docs/architecture.md");
        let markdown = std::fs::read_to_string(&architecture)
            .map_err(|e| format!("cannot read {}: {e}", architecture.display()))?;
        let table = parse_table(&markdown)?;
        if let Some(note) = compare_with_design(&table, &root) {
            eprintln!("{note}");
        }
        let metadata = load_metadata(&root)?;
        check_workspace(&metadata, &table)
    })();
    match result {
        Ok(violations) if violations.is_empty() => {
            println!(
                "deps: ok — every crate follows the uses table, no cycles, only `pub mod api`"
            );
            0
        }
        Ok(violations) => {
            for v in &violations {
                eprintln!("error: {v}");
            }
            eprintln!("deps: {} architecture violation(s)", violations.len());
            1
        }
        Err(message) => {
            eprintln!("error: {message}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn real_table() -> AllowedUses {
        let markdown = std::fs::read_to_string(repo_root().join("docs/architecture.md"))
            .expect("docs/architecture.md is part of the repository");
        parse_table(&markdown).expect("the table parses")
    }

    /// The workspace as it is must pass: this is what makes `cargo test` enforce the DAG.
    #[test]
    fn workspace_obeys_the_architecture() {
        let metadata = load_metadata(&repo_root()).expect("cargo metadata runs");
        let violations = check_workspace(&metadata, &real_table()).expect("check runs");
        let listed: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
        assert!(
            listed.is_empty(),
            "architecture violations:\n{}",
            listed.join("\n")
        );
    }

    #[test]
    fn table_has_every_crate_of_the_design() {
        let table = real_table();
        let names: Vec<&str> = table.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "cli",
                "dynamic",
                "front",
                "model",
                "prove",
                "search",
                "semantics",
                "simplify",
                "state",
                "symbolic",
                "verify"
            ]
        );
        assert!(table["symbolic"].is_empty());
        assert!(table["verify"].contains("search"));
    }

    /// A scratch copy of the real metadata with `tass-symbolic -> tass-verify` added
    /// (symbolic may use nothing) must be caught, naming the edge.
    #[test]
    fn forbidden_edge_is_reported_by_name() {
        let mut metadata = load_metadata(&repo_root()).expect("cargo metadata runs");
        let packages = metadata["packages"].as_array_mut().expect("packages");
        let symbolic = packages
            .iter_mut()
            .find(|p| p["name"] == "tass-symbolic")
            .expect("tass-symbolic is a member");
        symbolic["dependencies"]
            .as_array_mut()
            .expect("dependencies array")
            .push(serde_json::json!({"name": "tass-verify", "kind": null}));
        let violations = check_workspace(&metadata, &real_table()).expect("check runs");
        let edge = Violation::ForbiddenEdge {
            from: "symbolic".into(),
            to: "verify".into(),
            kind: "normal".into(),
        };
        assert!(violations.contains(&edge), "got {violations:?}");
        // verify already uses symbolic, so the added edge also closes a cycle.
        assert!(violations
            .iter()
            .any(|v| matches!(v, Violation::Cycle { in_table: false, members }
                if members.contains(&"symbolic".to_string()) && members.contains(&"verify".to_string()))));
        assert!(edge.to_string().contains("tass-symbolic -> tass-verify"));
    }

    #[test]
    fn cycle_in_the_table_is_reported() {
        let mut table = real_table();
        table.get_mut("search").unwrap().insert("verify".into());
        let violations = check_edges(&table, &[]);
        assert!(violations.iter().any(
            |v| matches!(v, Violation::Cycle { in_table: true, members } if members.contains(&"search".to_string()))
        ));
    }

    #[test]
    fn public_items_other_than_api_are_reported() {
        let source = "//! doc with `pub fn shown()` in it\n\
                      pub mod api;\n\
                      mod engine;\n\
                      pub(crate) mod helpers;\n\
                      pub use engine::Thing;\n\
                      /* pub fn hidden() */\n\
                      pub fn leak() {\n    pub struct Inner;\n}\n";
        let violations = check_lib_rs("demo", Path::new("lib.rs"), source);
        let lines: Vec<usize> = violations
            .iter()
            .map(|v| match v {
                Violation::PublicItem { line, .. } => *line,
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(lines, [5, 7]);
    }

    #[test]
    fn missing_api_is_reported() {
        let violations = check_lib_rs("demo", Path::new("lib.rs"), "mod hidden;\n");
        assert!(matches!(
            violations.as_slice(),
            [Violation::MissingApi { .. }]
        ));
    }
}
