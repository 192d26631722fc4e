//! `cargo xtask difftest`: differential testing of tass against real executions.
//!
//! Generates small random C and C/MPI programs (see `difftest/gen_seq.rs` and
//! `difftest/gen_mpi.rs`), runs tass on each, runs each concretely over its whole
//! (small) input box — gcc with AddressSanitizer and UBSan for sequential programs;
//! mpicc and `mpirun` under the default and the zero-buffer configuration, with random
//! per-rank delays, for MPI programs — and compares:
//!
//! - **unsound**: tass says `holds`, yet a concrete run fails (assertion, sanitizer,
//!   MPI error, or a hang = a deadlock; a hang in the default configuration must also be
//!   found by `--deadlock absolute`);
//! - **wrong**: tass reports a *provable* violation, yet no concrete run with its
//!   witness's inputs fails (for MPI programs: **unconfirmed**, as the failing schedule
//!   may just not have happened);
//! - tass errors (exit 2: a feature gap), inconclusive answers, *possible* violations
//!   never seen concretely (imprecise), and violations without a concrete symptom
//!   (leaks, unreceived messages) are counted apart.
//!
//! Each disagreement is kept as a folder with the program, the tass command and answer,
//! the concrete commands and outputs (REPRO.md): a ready-to-file reproducer.
//!
//! ```text
//! cargo xtask difftest [--seed S] [--count N] [--seq|--mpi] [--features LIST]
//!                      [--delays K] [--out DIR] [--no-build] [--tass PATH]
//! cargo xtask difftest --quick            the CI slice (fixed seed, seconds)
//! cargo xtask difftest --replay-witnesses [--quick] [--filter SUBSTR]
//! ```
//!
//! Exit status: 0 no unsound or wrong-sequential finding, 1 some, 2 usage or setup error.

mod concrete;
mod features;
mod gen_mpi;
mod gen_seq;
mod replay;
mod rng;

use concrete::{Behaviour, ConcreteRun, MpiConfig};
use features::Features;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const USAGE: &str = "\
usage: cargo xtask difftest [OPTIONS]
  --seed S              the generator's seed (default 1)
  --count N             programs per kind (default 50)
  --seq | --mpi         only sequential / only MPI programs (default both)
  --features LIST       switch on generator features that meet known tass bugs:
                        mixed-sign, char-bytes, iprobe-ssend, sendrecv, test-loop,
                        shared-outputs, all, none (default none)
  --delays K            delay seeds per MPI configuration and input (default 3)
  --out DIR             where reproducers go (default target/difftest)
  --keep                keep every program's folder, not only disagreements
  --quick               the CI slice: seed 1, 20 sequential and 6 MPI programs,
                        every feature switch on unless --features is given
  --replay-witnesses    run every fevs violation's witness concretely (with --quick:
                        the fevs quick subset; --filter SUBSTR: matching runs)
  --no-build            use target/release/tass as it is
  --tass PATH           use this tass binary (implies --no-build)";

/// A bounded integer input of a generated program.
#[derive(Debug, Clone)]
pub struct Input {
    pub name: String,
    pub lo: i64,
    pub hi: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Seq,
    Mpi { procs: u32 },
}

/// A generated program.
#[derive(Debug, Clone)]
pub struct Program {
    pub name: String,
    pub kind: Kind,
    pub inputs: Vec<Input>,
    pub source: String,
    pub features_used: Features,
}

#[derive(Debug, Clone)]
pub struct Options {
    seed: u64,
    seq_count: usize,
    mpi_count: usize,
    features: Features,
    delays: u64,
    out: Option<PathBuf>,
    keep: bool,
    build: bool,
    tass: Option<PathBuf>,
    replay: bool,
    quick: bool,
    filter: Option<String>,
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        seed: 1,
        seq_count: 50,
        mpi_count: 50,
        features: Features::new(),
        delays: 3,
        out: None,
        keep: false,
        build: true,
        tass: None,
        replay: false,
        quick: false,
        filter: None,
    };
    let (mut only_seq, mut only_mpi, mut count) = (false, false, None);
    let mut features_given = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        let number = |text: String, flag: &str| {
            text.parse::<u64>()
                .map_err(|_| format!("{flag} needs a number, not `{text}`"))
        };
        match a.as_str() {
            "--seed" => o.seed = number(value(a)?, a)?,
            "--count" => count = Some(number(value(a)?, a)? as usize),
            "--seq" => only_seq = true,
            "--mpi" => only_mpi = true,
            "--features" => {
                o.features = features::parse(&value(a)?)?;
                features_given = true;
            }
            "--delays" => o.delays = number(value(a)?, a)?,
            "--out" => o.out = Some(PathBuf::from(value(a)?)),
            "--keep" => o.keep = true,
            "--quick" => o.quick = true,
            "--replay-witnesses" => o.replay = true,
            "--filter" => o.filter = Some(value(a)?),
            "--no-build" => o.build = false,
            "--tass" => {
                o.tass = Some(PathBuf::from(value(a)?));
                o.build = false;
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    if o.quick && !o.replay {
        // Every switch's bug is fixed (issue 14), so the CI slice generates them all.
        if !features_given {
            o.features = features::parse("all")?;
        }
        o.seed = 1;
        o.seq_count = 20;
        o.mpi_count = 6;
        o.delays = 1;
    }
    if let Some(n) = count {
        o.seq_count = n;
        o.mpi_count = n;
    }
    if only_seq {
        o.mpi_count = 0;
    }
    if only_mpi {
        o.seq_count = 0;
    }
    Ok(o)
}

// ---------------------------------------------------------------------------------
// tass's answer
// ---------------------------------------------------------------------------------

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Answer {
    pub verdict: String,
    #[serde(default)]
    pub violations: Vec<Violation>,
    pub error: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Violation {
    pub property: String,
    pub certainty: Option<String>,
    pub message: Option<String>,
    pub line: Option<u64>,
    pub witness: Option<serde_json::Map<String, serde_json::Value>>,
}

impl Violation {
    fn provable(&self) -> bool {
        self.certainty.as_deref() == Some("provable")
    }

    fn describe(&self) -> String {
        format!(
            "{} ({}) at line {}: {}",
            self.property,
            self.certainty.as_deref().unwrap_or("?"),
            self.line.map_or("?".into(), |l| l.to_string()),
            self.message.as_deref().unwrap_or("")
        )
    }
}

/// Violations a concrete run does not show as a failure.
pub const NO_CONCRETE_SYMPTOM: &[&str] = &[
    "unreceived-message",
    "memory-leak",
    "resource-leak",
    "mpi-init-finalize",
    "assumption-vacuous",
];

/// One tass run: command line, raw output, parsed answer (None: no JSON), time.
pub struct TassRun {
    pub command: String,
    pub output: String,
    pub answer: Option<Answer>,
    pub exit: Option<i32>,
    pub elapsed: Duration,
}

pub fn run_tass(tass: &Path, dir: &Path, args: &[String], limit: Duration) -> TassRun {
    let mut cmd = Command::new(tass);
    cmd.args(args).current_dir(dir);
    let command = format!("tass {}", args.join(" "));
    match crate::fevs::run_with_limit(&mut cmd, limit) {
        Ok(raw) => {
            let answer = serde_json::from_str::<Answer>(raw.stdout.trim()).ok();
            TassRun {
                command,
                output: format!("{}{}", raw.stdout, raw.stderr),
                answer: if raw.timed_out { None } else { answer },
                exit: raw.exit,
                elapsed: raw.elapsed,
            }
        }
        Err(e) => TassRun {
            command,
            output: e,
            answer: None,
            exit: None,
            elapsed: Duration::ZERO,
        },
    }
}

// ---------------------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    Agree,
    Unsound,
    Wrong,
    Unconfirmed,
    Imprecise,
    NoSymptom,
    Inconclusive,
    TassError,
    HarnessError,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Agree => "agree",
            Class::Unsound => "UNSOUND",
            Class::Wrong => "WRONG",
            Class::Unconfirmed => "unconfirmed",
            Class::Imprecise => "imprecise",
            Class::NoSymptom => "no-symptom",
            Class::Inconclusive => "inconclusive",
            Class::TassError => "tass-error",
            Class::HarnessError => "harness-error",
        }
    }

    /// Worth a reproducer folder.
    fn kept(self) -> bool {
        matches!(
            self,
            Class::Unsound | Class::Wrong | Class::Unconfirmed | Class::TassError
        )
    }
}

/// A concrete run and the input values it had.
type InputRun = (BTreeMap<String, i64>, ConcreteRun);

pub struct Finding {
    pub class: Class,
    pub why: String,
}

fn finding(class: Class, why: impl Into<String>) -> Finding {
    Finding {
        class,
        why: why.into(),
    }
}

/// Does a concrete input assignment agree with tass's witness (missing names: any)?
fn matches_witness(
    inputs: &BTreeMap<String, i64>,
    witness: &serde_json::Map<String, serde_json::Value>,
) -> bool {
    witness.iter().all(|(k, v)| match inputs.get(k) {
        Some(x) => v.as_i64() == Some(*x) || v.as_str() == Some(x.to_string().as_str()),
        None => true,
    })
}

/// Compares tass's answer with the concrete runs (`(inputs, run)` pairs).
fn compare(tass: &TassRun, runs: &[(BTreeMap<String, i64>, ConcreteRun)], kind: Kind) -> Finding {
    if let Some((_, r)) = runs
        .iter()
        .find(|(_, r)| matches!(r.behaviour, Behaviour::HarnessError(_)))
    {
        return finding(Class::HarnessError, r.behaviour.describe());
    }
    let failing: Vec<&(BTreeMap<String, i64>, ConcreteRun)> = runs
        .iter()
        .filter(|(_, r)| r.behaviour.is_failure())
        .collect();
    let first_failure = failing
        .first()
        .map(|(i, r)| format!("{} with {i:?}: {}", r.command, r.behaviour.describe()));
    let Some(answer) = &tass.answer else {
        let head = tass.output.lines().next().unwrap_or("").to_string();
        return match tass.exit {
            Some(2) => finding(Class::TassError, head),
            _ => finding(
                Class::Inconclusive,
                format!("no answer (exit {:?}) {head}", tass.exit),
            ),
        };
    };
    match answer.verdict.as_str() {
        "holds" => match first_failure {
            None => finding(Class::Agree, "holds; every concrete run passes"),
            Some(f) => finding(Class::Unsound, format!("tass: holds; but {f}")),
        },
        "violated" => judge_violation(&answer.violations, &failing, first_failure, kind),
        "error" => finding(Class::TassError, answer.error.clone().unwrap_or_default()),
        other => finding(Class::Inconclusive, format!("tass: {other}")),
    }
}

fn judge_violation(
    violations: &[Violation],
    failing: &[&(BTreeMap<String, i64>, ConcreteRun)],
    first_failure: Option<String>,
    kind: Kind,
) -> Finding {
    let Some(v) = violations.first() else {
        return finding(Class::Inconclusive, "violated, but no violation listed");
    };
    if NO_CONCRETE_SYMPTOM.contains(&v.property.as_str()) {
        return match first_failure {
            Some(_) => finding(Class::Agree, v.describe()),
            None => finding(Class::NoSymptom, v.describe()),
        };
    }
    if !v.provable() {
        return match first_failure {
            Some(_) => finding(Class::Agree, v.describe()),
            None => finding(
                Class::Imprecise,
                format!("possible {}; no concrete run fails", v.describe()),
            ),
        };
    }
    let empty = serde_json::Map::new();
    let witness = v.witness.as_ref().unwrap_or(&empty);
    if failing.iter().any(|(i, _)| matches_witness(i, witness)) {
        return finding(Class::Agree, v.describe());
    }
    let why = format!(
        "tass: provable {}, witness {}; no concrete run with the witness's inputs fails{}",
        v.describe(),
        serde_json::Value::Object(witness.clone()),
        first_failure.map_or(String::new(), |f| format!(" (other inputs do: {f})"))
    );
    match kind {
        Kind::Seq => finding(Class::Wrong, why),
        Kind::Mpi { .. } => finding(Class::Unconfirmed, why),
    }
}

// ---------------------------------------------------------------------------------
// One program
// ---------------------------------------------------------------------------------

struct Outcome {
    program: Program,
    finding: Finding,
    tass_time: Duration,
    concrete_time: Duration,
    runs: usize,
    folder: Option<PathBuf>,
}

const TASS_LIMIT: Duration = Duration::from_secs(60);
const SEQ_RUN_LIMIT: Duration = Duration::from_secs(20);
const HANG_AFTER: Duration = Duration::from_secs(3);

fn tass_args(p: &Program, deadlock: &str) -> Vec<String> {
    let mut args: Vec<String> = ["verify", "--format", "json", "--timeout", "40"]
        .map(String::from)
        .into();
    if let Kind::Mpi { procs } = p.kind {
        args.extend(["-n".into(), procs.to_string()]);
        args.extend(["--deadlock".into(), deadlock.into()]);
    }
    args.push("prog.c".into());
    args
}

fn concrete_runs(p: &Program, dir: &Path, delays: u64) -> Result<(String, Vec<InputRun>), String> {
    let boxed: Vec<(String, i64, i64)> = p
        .inputs
        .iter()
        .map(|i| (i.name.clone(), i.lo, i.hi))
        .collect();
    let mut runs = Vec::new();
    match p.kind {
        Kind::Seq => {
            let line = concrete::compile(
                "gcc",
                concrete::GCC_FLAGS,
                &["-include".into(), "dt_prelude.h".into()],
                dir,
                "prog.c",
            )?;
            for inputs in concrete::input_box(&boxed) {
                let r = concrete::run_seq(dir, &inputs, SEQ_RUN_LIMIT);
                runs.push((inputs, r));
            }
            Ok((line, runs))
        }
        Kind::Mpi { procs } => {
            let line = concrete::compile(
                "mpicc",
                concrete::MPICC_FLAGS,
                &["-include".into(), "dt_prelude.h".into()],
                dir,
                "prog.c",
            )?;
            // A failure ends the runs of its input in that configuration, and a hang
            // with buffering needs no zero-buffer run to show: hangs cost the most.
            for inputs in concrete::input_box(&boxed) {
                'configs: for config in [MpiConfig::Default, MpiConfig::ZeroBuffer] {
                    for seed in 0..delays.max(1) {
                        let r = concrete::run_mpi(dir, procs, config, &inputs, seed, HANG_AFTER);
                        let (failed, hang) =
                            (r.behaviour.is_failure(), r.behaviour == Behaviour::Hang);
                        runs.push((inputs.clone(), r));
                        if hang && config == MpiConfig::Default {
                            break 'configs;
                        }
                        if failed {
                            break;
                        }
                    }
                }
            }
            Ok((line, runs))
        }
    }
}

fn check_program(p: Program, tass: &Path, out: &Path, o: &Options) -> Outcome {
    let dir = out.join(&p.name);
    let _ = std::fs::remove_dir_all(&dir);
    let setup = std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::write(dir.join("prog.c"), &p.source))
        .and_then(|_| {
            let mut prelude = concrete::PRELUDE_SEQ.to_string();
            if matches!(p.kind, Kind::Mpi { .. }) {
                prelude.push_str(concrete::PRELUDE_MPI_DELAY);
            }
            std::fs::write(dir.join("dt_prelude.h"), prelude)
        });
    let mut outcome = Outcome {
        program: p,
        finding: finding(Class::HarnessError, ""),
        tass_time: Duration::ZERO,
        concrete_time: Duration::ZERO,
        runs: 0,
        folder: None,
    };
    if let Err(e) = setup {
        outcome.finding = finding(Class::HarnessError, format!("{}: {e}", dir.display()));
        return outcome;
    }
    let p = &outcome.program;
    let mut tass_runs = vec![run_tass(tass, &dir, &tass_args(p, "potential"), TASS_LIMIT)];
    outcome.tass_time = tass_runs[0].elapsed;
    let start = Instant::now();
    let concrete = concrete_runs(p, &dir, o.delays);
    outcome.concrete_time = start.elapsed();
    let (compile_line, runs) = match concrete {
        Ok(c) => c,
        Err(e) => {
            outcome.finding = finding(Class::HarnessError, e);
            let _ = write_reproducer(&dir, &outcome, &tass_runs, "", &[]);
            outcome.folder = Some(dir);
            return outcome;
        }
    };
    outcome.runs = runs.len();
    let mut f = compare(&tass_runs[0], &runs, p.kind);
    // A hang with OpenMPI's buffering is a deadlock in absolute mode as well.
    let default_hang = runs
        .iter()
        .any(|(_, r)| r.behaviour == Behaviour::Hang && !r.command.contains("btl_tcp_eager_limit"));
    if f.class != Class::Unsound && default_hang {
        let abs = run_tass(tass, &dir, &tass_args(p, "absolute"), TASS_LIMIT);
        outcome.tass_time += abs.elapsed;
        if abs.answer.as_ref().is_some_and(|a| a.verdict == "holds") {
            f = finding(
                Class::Unsound,
                "tass --deadlock absolute: holds; but a run with OpenMPI's default buffering hangs",
            );
        }
        tass_runs.push(abs);
    }
    outcome.finding = f;
    if outcome.finding.class.kept() || o.keep {
        let _ = write_reproducer(&dir, &outcome, &tass_runs, &compile_line, &runs);
        outcome.folder = Some(dir);
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
    outcome
}

fn write_reproducer(
    dir: &Path,
    o: &Outcome,
    tass_runs: &[TassRun],
    compile_line: &str,
    runs: &[(BTreeMap<String, i64>, ConcreteRun)],
) -> std::io::Result<()> {
    let mut md = String::new();
    let p = &o.program;
    let _ = writeln!(md, "# difftest {}: {}\n", p.name, o.finding.class.name());
    let _ = writeln!(md, "{}\n", o.finding.why);
    let _ = writeln!(
        md,
        "Generator features switched on and used: {}. Files: `prog.c` (the program), \
         `dt_prelude.h` (gives the concrete build its inputs from `DT_<name>` and the \
         random delays from `DT_SEED`; tass never sees it).\n",
        features::names(&p.features_used)
    );
    let _ = writeln!(md, "```c\n{}```\n", p.source);
    for t in tass_runs {
        let _ = writeln!(
            md,
            "## `{}`\n\n```\n{}\n```\n",
            t.command,
            t.output.trim_end()
        );
    }
    if !compile_line.is_empty() {
        let _ = writeln!(md, "## Concrete runs\n\n`{compile_line}`\n");
    }
    // Failures first, then one passing run of each input, with their outputs.
    for (shown, (_, r)) in runs
        .iter()
        .filter(|(_, r)| r.behaviour.is_failure())
        .enumerate()
    {
        if shown < 6 {
            let _ = writeln!(
                md,
                "- `{}`: {}\n\n```\n{}\n```\n",
                r.command,
                r.behaviour.describe(),
                r.output.trim_end().chars().take(3000).collect::<String>()
            );
        }
    }
    for (_, r) in runs.iter().filter(|(_, r)| !r.behaviour.is_failure()) {
        let _ = writeln!(md, "- `{}`: {}", r.command, r.behaviour.describe());
    }
    std::fs::write(dir.join("REPRO.md"), md)
}

// ---------------------------------------------------------------------------------
// The driver
// ---------------------------------------------------------------------------------

/// The program of `kind` number `index` under `seed`: each program has its own stream,
/// so a program reads the same whatever the count.
fn generate(seed: u64, index: usize, mpi: bool, features: &Features) -> Program {
    let kind_salt = if mpi { 0x6d70_6900 } else { 0x7365_7100 };
    let mut r = rng::Rng::new(seed.wrapping_mul(1_000_003) ^ kind_salt ^ (index as u64) << 20);
    if mpi {
        gen_mpi::generate(&mut r, features, &format!("mpi-s{seed}-{index}"))
    } else {
        gen_seq::generate(&mut r, features, &format!("seq-s{seed}-{index}"))
    }
}

pub fn tass_binary(o_tass: &Option<PathBuf>, build: bool) -> Result<PathBuf, String> {
    let tass = match (o_tass, build) {
        (Some(p), _) => p.clone(),
        (None, true) => crate::fevs::build_tass()?,
        (None, false) => crate::fevs::release_binary(),
    };
    if tass.is_file() {
        Ok(tass)
    } else {
        Err(format!("no tass binary at {}", tass.display()))
    }
}

pub fn run(args: &[String]) -> i32 {
    let o = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("difftest: {e}");
            }
            eprintln!("{USAGE}");
            return 2;
        }
    };
    let tass = match tass_binary(&o.tass, o.build) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("difftest: {e}");
            return 2;
        }
    };
    let tass = std::fs::canonicalize(&tass).unwrap_or(tass);
    if o.replay {
        return replay::run(&tass, o.quick, o.filter.as_deref());
    }
    let out = o
        .out
        .clone()
        .unwrap_or_else(|| crate::fevs::target_dir().join("difftest"));
    let out = if out.is_absolute() {
        out
    } else {
        std::env::current_dir().unwrap_or_default().join(out)
    };
    println!(
        "difftest: seed {}, {} sequential + {} MPI programs, features {}, {} delay seed(s), reproducers in {}",
        o.seed,
        o.seq_count,
        o.mpi_count,
        features::names(&o.features),
        o.delays,
        out.display()
    );
    let start = Instant::now();
    let mut outcomes = Vec::new();
    let plan = (0..o.seq_count)
        .map(|i| (i, false))
        .chain((0..o.mpi_count).map(|i| (i, true)));
    for (i, mpi) in plan {
        let p = generate(o.seed, i, mpi, &o.features);
        let oc = check_program(p, &tass, &out, &o);
        println!(
            "  {:<16} {:<13} tass {:>5.1}s concrete {:>5.1}s ({} runs)  {}",
            oc.program.name,
            oc.finding.class.name(),
            oc.tass_time.as_secs_f64(),
            oc.concrete_time.as_secs_f64(),
            oc.runs,
            oc.finding.why.chars().take(150).collect::<String>()
        );
        outcomes.push(oc);
    }
    summarize(&outcomes, start.elapsed())
}

fn summarize(outcomes: &[Outcome], elapsed: Duration) -> i32 {
    let mut table: BTreeMap<(Class, &str), usize> = BTreeMap::new();
    for oc in outcomes {
        let kind = match oc.program.kind {
            Kind::Seq => "seq",
            Kind::Mpi { .. } => "mpi",
        };
        *table.entry((oc.finding.class, kind)).or_default() += 1;
    }
    let count = |c: Class, k: &str| table.get(&(c, k)).copied().unwrap_or(0);
    println!("\n| outcome | sequential | MPI |\n|---|---:|---:|");
    let classes = [
        Class::Agree,
        Class::Unsound,
        Class::Wrong,
        Class::Unconfirmed,
        Class::Imprecise,
        Class::NoSymptom,
        Class::Inconclusive,
        Class::TassError,
        Class::HarnessError,
    ];
    for c in classes {
        println!(
            "| {} | {} | {} |",
            c.name(),
            count(c, "seq"),
            count(c, "mpi")
        );
    }
    let total = |k: &str| {
        outcomes
            .iter()
            .filter(|o| {
                matches!(
                    (o.program.kind, k),
                    (Kind::Seq, "seq") | (Kind::Mpi { .. }, "mpi")
                )
            })
            .count()
    };
    println!("| programs tried | {} | {} |", total("seq"), total("mpi"));
    let tass_s: f64 = outcomes.iter().map(|o| o.tass_time.as_secs_f64()).sum();
    let conc_s: f64 = outcomes.iter().map(|o| o.concrete_time.as_secs_f64()).sum();
    println!(
        "\ntime: {:.1} s in all ({tass_s:.1} s tass, {conc_s:.1} s concrete runs)",
        elapsed.as_secs_f64()
    );
    for oc in outcomes
        .iter()
        .filter(|o| o.finding.class.kept() || o.finding.class == Class::HarnessError)
    {
        println!(
            "{}: {} — {}{}",
            oc.finding.class.name(),
            oc.program.name,
            oc.finding.why.chars().take(300).collect::<String>(),
            oc.folder.as_ref().map_or(String::new(), |f| format!(
                "\n    reproducer: {}/REPRO.md",
                f.display()
            ))
        );
    }
    let failing = count(Class::Unsound, "seq")
        + count(Class::Unsound, "mpi")
        + count(Class::Wrong, "seq")
        + count(Class::HarnessError, "seq")
        + count(Class::HarnessError, "mpi");
    if failing > 0 {
        println!("difftest: FAILED ({failing} unsound / wrong / harness-error programs)");
        1
    } else {
        println!("difftest: ok (no unsound or wrong-sequential finding)");
        0
    }
}
