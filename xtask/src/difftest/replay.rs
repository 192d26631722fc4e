//! `cargo xtask difftest --replay-witnesses`: every fevs run whose expected verdict is
//! a violation is run through tass; the witness it prints (input name -> value) is put
//! into the program's `#define`s, the program is compiled concretely (gcc with
//! sanitizers, or mpicc) with `-DFEVS_CONCRETE`, and it must fail when run: an
//! assertion, a sanitizer report, an MPI error, or a hang (under the configuration
//! the deadlock mode names). `#pragma TASS assert E` becomes `assert(E)` and
//! `#pragma TASS assume E` becomes `if (!(E)) exit(0)` in the concrete copy.
//!
//! Programs that cannot be replayed honestly are listed as such: compare runs, input
//! arrays (a witness gives scalars only; the concrete build would fill the arrays with
//! fixed values, not the ones tass found), quantified or `PROC[...]` pragmas, abstract
//! functions, and violations without a concrete symptom (leaks in MPI programs,
//! unreceived messages).

use super::concrete::{self, Behaviour, MpiConfig};
use super::{run_tass, Answer};
use crate::fevs::{self, Entry, Verdict};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Replay {
    Reproduced(String),
    NotReproduced(String),
    /// An MPI program whose failing schedule did not happen in the runs tried.
    Unconfirmed(String),
    Unreplayable(String),
    TassDisagrees(String),
}

impl Replay {
    fn label(&self) -> &'static str {
        match self {
            Replay::Reproduced(_) => "reproduced",
            Replay::NotReproduced(_) => "NOT REPRODUCED",
            Replay::Unconfirmed(_) => "unconfirmed",
            Replay::Unreplayable(_) => "cannot replay",
            Replay::TassDisagrees(_) => "tass: no violation",
        }
    }

    fn detail(&self) -> &str {
        match self {
            Replay::Reproduced(s)
            | Replay::NotReproduced(s)
            | Replay::Unconfirmed(s)
            | Replay::Unreplayable(s)
            | Replay::TassDisagrees(s) => s,
        }
    }
}

fn witness_text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::String(s) if s.parse::<f64>().is_ok() => Some(s.clone()),
        _ => None,
    }
}

fn is_conditional(line: &str) -> bool {
    ["#if", "#endif", "#else", "#elif"]
        .iter()
        .any(|p| line.trim_start().starts_with(p))
}

/// The concrete copy of a fevs program with the witness's inputs, or why none exists.
fn concrete_source(text: &str, values: &BTreeMap<String, String>) -> Result<String, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::with_capacity(lines.len());
    let mut input_next = false;
    for line in &lines {
        let t = line.trim_start();
        if t.starts_with("#pragma TASS input") {
            input_next = true;
            out.push(line.to_string());
            continue;
        }
        if input_next && !is_conditional(t) && !t.is_empty() {
            input_next = false;
            if let Some(rest) = t.strip_prefix("#define") {
                let name = rest.split_whitespace().next().unwrap_or("").to_string();
                match values.get(&name) {
                    Some(v) => out.push(format!("#define {name} ({v})")),
                    None => out.push(line.to_string()),
                }
                continue;
            }
            return Err(format!(
                "input declared as `{}`: the witness gives no values for it",
                t.trim()
            ));
        }
        if let Some(e) = t.strip_prefix("#pragma TASS assert") {
            out.push(concrete_pragma(e, "assert(", ");")?);
            continue;
        }
        if let Some(e) = t.strip_prefix("#pragma TASS assume") {
            out.push(concrete_pragma(e, "if (!(", ")) exit(0);")?);
            continue;
        }
        if t.starts_with("#pragma TASS abstract") {
            return Err(
                "an abstract (uninterpreted) function: its concrete body is one choice".into(),
            );
        }
        if t.starts_with("#pragma TASS") && (t.contains("collective") || t.contains("joint")) {
            return Err(format!("`{}` has no C equivalent", t.trim()));
        }
        out.push(line.to_string());
    }
    Ok(out.join("\n") + "\n")
}

fn concrete_pragma(expr: &str, open: &str, close: &str) -> Result<String, String> {
    let e = expr.trim().trim_end_matches('\\').trim();
    for word in ["forall", "exists", "PROC", "NPROCS", "PID", "spec.", "\\"] {
        if e.contains(word) {
            return Err(format!(
                "`#pragma TASS ... {e}` uses `{word}`, which C cannot evaluate"
            ));
        }
    }
    Ok(format!("{open}{e}{close}"))
}

fn option_value<'a>(args: &'a [String], flags: &[&str]) -> Option<&'a str> {
    args.windows(2)
        .find(|w| flags.contains(&w[0].as_str()))
        .map(|w| w[1].as_str())
}

fn replay_one(e: &Entry, tass: &Path, work: &Path) -> Replay {
    if e.args.first().map(String::as_str) != Some("verify") {
        return Replay::Unreplayable("a compare run: no single program to run".into());
    }
    let dir = fevs::fevs_dir();
    let mut args = fevs::tass_args(e);
    args.retain(|a| a != "--stats");
    let t = run_tass(tass, &dir, &args, Duration::from_secs(300));
    let Some(answer): Option<Answer> = t.answer else {
        return Replay::TassDisagrees(format!(
            "no JSON answer: {}",
            t.output.lines().next().unwrap_or("")
        ));
    };
    let Some(v) = answer.violations.first() else {
        return Replay::TassDisagrees(format!("verdict {}", answer.verdict));
    };
    let program = e.c_files().last().copied().unwrap_or("").to_string();
    let text = match std::fs::read_to_string(dir.join(&program)) {
        Ok(t) => t,
        Err(err) => return Replay::Unreplayable(format!("{program}: {err}")),
    };
    let mpi = text.contains("#include <mpi.h>");
    // LeakSanitizer shows a sequential leak; nothing shows an MPI one.
    if (mpi || v.property != "memory-leak")
        && super::NO_CONCRETE_SYMPTOM.contains(&v.property.as_str())
    {
        return Replay::Unreplayable(format!("{}: no concrete symptom", v.property));
    }
    let mut values = BTreeMap::new();
    // `-i NAME=VALUE` on the command line first; the witness's values win.
    for w in e.args.windows(2).filter(|w| w[0] == "-i") {
        if let Some((k, val)) = w[1].split_once('=') {
            values.insert(k.to_string(), val.to_string());
        }
    }
    for (k, val) in v.witness.iter().flatten() {
        match witness_text(val) {
            Some(s) => {
                values.insert(k.clone(), s);
            }
            None => return Replay::Unreplayable(format!("witness value {k} = {val}")),
        }
    }
    let src = match concrete_source(&text, &values) {
        Ok(s) => s,
        Err(why) => return Replay::Unreplayable(why),
    };
    let wdir = work.join(&e.name);
    let _ = std::fs::remove_dir_all(&wdir);
    if let Err(err) =
        std::fs::create_dir_all(&wdir).and_then(|_| std::fs::write(wdir.join("prog.c"), &src))
    {
        return Replay::Unreplayable(format!("{}: {err}", wdir.display()));
    }
    let what = format!("{} with {values:?}", v.property);
    let mut defines = vec![
        "-DFEVS_CONCRETE".to_string(),
        "-include".into(),
        "stdlib.h".into(),
        "-include".into(),
        "assert.h".into(),
    ];
    defines.extend(
        e.args
            .windows(2)
            .filter(|w| w[0] == "-D")
            .map(|w| format!("-D{}", w[1])),
    );
    let (compiler, flags) = if mpi {
        ("mpicc", concrete::MPICC_FLAGS)
    } else {
        ("gcc", concrete::GCC_FLAGS)
    };
    if let Err(err) = concrete::compile(compiler, flags, &defines, &wdir, "prog.c") {
        return Replay::Unreplayable(format!(
            "does not compile: {}",
            err.lines().take(3).collect::<Vec<_>>().join(" ")
        ));
    }
    let runs = if mpi {
        let procs: u32 = option_value(&e.args, &["-n", "--procs"])
            .and_then(|n| n.parse().ok())
            .unwrap_or(1);
        let configs = if option_value(&e.args, &["--deadlock"]) == Some("absolute") {
            vec![MpiConfig::Default]
        } else {
            vec![MpiConfig::ZeroBuffer, MpiConfig::Default]
        };
        let mut runs = Vec::new();
        for c in configs {
            for _ in 0..3 {
                let r =
                    concrete::run_mpi(&wdir, procs, c, &BTreeMap::new(), 0, Duration::from_secs(4));
                let failed = r.behaviour.is_failure();
                runs.push((c.name(), r));
                if failed {
                    break;
                }
            }
        }
        runs
    } else {
        vec![(
            "sequential",
            concrete::run_seq(&wdir, &BTreeMap::new(), Duration::from_secs(30)),
        )]
    };
    let symptom = |r: &concrete::ConcreteRun| r.behaviour.is_failure() && !no_window(r);
    match runs.iter().find(|(_, r)| symptom(r)) {
        Some((c, r)) => Replay::Reproduced(format!("{what}: {c}: {}", r.behaviour.describe())),
        None if runs.iter().any(|(_, r)| no_window(r)) => Replay::Unconfirmed(format!(
            "{what}: the runs that end fail only at making the window (MPI_ERR_WIN: this MPI \
             has no one-sided transport in that configuration); program in {}",
            wdir.display()
        )),
        None => match runs
            .iter()
            .find(|(_, r)| matches!(r.behaviour, Behaviour::HarnessError(_)))
        {
            Some((_, r)) => Replay::Unreplayable(r.behaviour.describe()),
            None => {
                let why = format!(
                    "{what}: {} run(s) pass; program in {}",
                    runs.len(),
                    wdir.display()
                );
                if mpi {
                    Replay::Unconfirmed(why)
                } else {
                    Replay::NotReproduced(why)
                }
            }
        },
    }
}

pub fn run(tass: &Path, quick: bool, filter: Option<&str>) -> i32 {
    let entries = match fevs::load_manifest() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("difftest: {e}");
            return 2;
        }
    };
    let work = fevs::target_dir().join("difftest").join("replay");
    let chosen: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.expect == Verdict::Violated)
        .filter(|e| !quick || e.quick)
        .filter(|e| filter.is_none_or(|f| e.name.contains(f)))
        .collect();
    println!(
        "difftest --replay-witnesses: {} fevs runs expect a violation",
        chosen.len()
    );
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    for e in chosen {
        let r = replay_one(e, tass, &work);
        println!("  {:<30} {:<18} {}", e.name, r.label(), r.detail());
        *counts.entry(r.label()).or_default() += 1;
    }
    let summary: Vec<String> = counts.iter().map(|(k, n)| format!("{k}: {n}")).collect();
    println!("difftest --replay-witnesses: {}", summary.join(", "));
    let bad = counts.get("NOT REPRODUCED").copied().unwrap_or(0)
        + counts.get("tass: no violation").copied().unwrap_or(0);
    i32::from(bad > 0)
}

/// Whether run `r` failed only because the MPI library could not make a
/// window: Open MPI 4.1's default one-sided component has no transport over
/// `btl self,tcp` (the zero-buffer setting), so without `--mca osc ucx,pt2pt`
/// (asked for since session 17; an MPI may lack it) every RMA program fails
/// there at `MPI_Win_create` or `MPI_Win_allocate` with MPI_ERR_WIN, whatever
/// the program does. That is no symptom of the violation being replayed.
fn no_window(r: &concrete::ConcreteRun) -> bool {
    matches!(r.behaviour, Behaviour::Failed(_))
        && r.output.contains("MPI_ERR_WIN")
        && (r.output.contains("in MPI_Win_create") || r.output.contains("in MPI_Win_allocate"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_the_library_cannot_make_is_no_symptom() {
        let run = |output: &str| concrete::ConcreteRun {
            command: String::new(),
            behaviour: Behaviour::Failed("exit 53".into()),
            output: output.into(),
        };
        let no_transport = "*** An error occurred in MPI_Win_create\n\
            *** reported by process [1262223361,1]\n*** MPI_ERR_WIN: invalid window\n";
        assert!(no_window(&run(no_transport)));
        let lock_error = "*** An error occurred in MPI_Win_lock\n*** MPI_ERR_WIN: invalid window\n";
        assert!(!no_window(&run(lock_error)));
        assert!(!no_window(&run("prog.c:9: main: Assertion `x' failed.\n")));
    }

    #[test]
    fn witness_values_replace_the_input_defines_and_pragmas_become_c() {
        let src = "#pragma TASS input int\n#define B 3\n#pragma TASS input {0 <= N} int\n#define N 3\nint main(void) {\n#pragma TASS assert N < B\nreturn 0; }\n";
        let values = BTreeMap::from([("N".to_string(), "2".to_string())]);
        let c = concrete_source(src, &values).unwrap();
        assert!(c.contains("#define B 3\n"), "{c}");
        assert!(c.contains("#define N (2)\n"), "{c}");
        assert!(c.contains("assert(N < B);"), "{c}");
    }

    #[test]
    fn array_inputs_and_quantifiers_cannot_be_replayed() {
        let arr = "#ifndef FEVS_CONCRETE\n#pragma TASS input\n#endif\ndouble a[4];\n";
        assert!(concrete_source(arr, &BTreeMap::new())
            .unwrap_err()
            .contains("double a[4]"));
        let q = "#pragma TASS assert forall {int k | 0 <= k && k < 3} a[k] > 0\n";
        assert!(concrete_source(q, &BTreeMap::new()).is_err());
    }
}
