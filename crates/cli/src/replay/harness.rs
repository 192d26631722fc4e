//! The concrete harness: a copy of each program file with its inputs fixed to the
//! witness's values and the TASS pragmas turned into C, ready for gcc or mpicc.
//!
//! `#pragma TASS input` before an object-like `#define NAME` gets the define replaced
//! by the value; before a declaration, the variable is assigned its value by a
//! constructor that runs before `main` (array inputs element by element, from witness
//! keys `a[0]`, `a[1]`, ...). `#pragma TASS assert E` becomes `assert(E)`;
//! `#pragma TASS assume E` stops the run with exit status 98 when `E` is false (the
//! witness then does not satisfy the program's assumptions: no replay). Pragmas C
//! cannot evaluate (quantifiers, `PROC[...]`, collective and joint assertions,
//! abstract functions) make the program unreplayable, said by name.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Exit status of a harness whose `#pragma TASS assume` did not hold.
pub(crate) const ASSUME_FAILED_EXIT: i32 = 98;

/// Whether (and when) the harness prints the program's `#pragma TASS output`s, as
/// lines `TASS-OUTPUT name = value` (for replaying a comparison).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutputPrinting {
    Off,
    /// When the program exits (a destructor).
    AtExit,
    /// Rank 0, in `MPI_Finalize` (a PMPI wrapper; outputs are rank 0's copies).
    AtMpiFinalize,
}

/// The prefix of an output line of the harness.
pub(crate) const OUTPUT_MARK: &str = "TASS-OUTPUT ";

/// One program file rewritten for the concrete run.
#[derive(Debug)]
pub(crate) struct HarnessFile {
    pub text: String,
    /// Inputs the witness had no value for (they keep the program's own value).
    pub unset_inputs: Vec<String>,
    /// Outputs the harness cannot print (arrays of more than two dimensions).
    pub unprinted_outputs: Vec<String>,
}

/// Why a program cannot be replayed.
pub(crate) type Unreplayable = String;

/// A witness value as C source, or `None` when it is not a number.
pub(crate) fn c_value(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(if *b { "1" } else { "0" }.into()),
        serde_json::Value::String(s) => {
            let s = s.trim();
            if s.parse::<f64>().is_ok() {
                return Some(s.to_string());
            }
            // Rationals from the prover: `p/q`, possibly negative.
            let (p, q) = s.split_once('/')?;
            let (p, q) = (p.trim(), q.trim());
            (p.parse::<f64>().is_ok() && q.parse::<f64>().is_ok())
                .then(|| format!("((double)({p}) / ({q}))"))
        }
        _ => None,
    }
}

fn is_conditional(line: &str) -> bool {
    ["#if", "#endif", "#else", "#elif"]
        .iter()
        .any(|p| line.starts_with(p))
}

/// The name a declaration `TYPE NAME[...] ...;` declares (the last identifier before
/// `[`, `=` or `;`).
fn declared_name(decl: &str) -> Option<String> {
    let head = decl.split(['[', '=', ';']).next()?;
    let name: String = head
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    (!name.is_empty() && !name.chars().next()?.is_ascii_digit()).then_some(name)
}

/// Rewrites one program file; `values` maps input names (and array elements such as
/// `a[0]`) to C values; `origin` is the file's path, kept for `#line` so that
/// assertion and sanitizer messages name the original file and line.
pub(crate) fn harness_file(
    text: &str,
    origin: &str,
    values: &BTreeMap<String, String>,
    printing: OutputPrinting,
) -> Result<HarnessFile, Unreplayable> {
    let mut out = String::new();
    let _ = writeln!(out, "#line 1 \"{}\"", origin.replace('"', "\\\""));
    let mut input_next = false;
    let mut output_next = false;
    let mut declared_inputs = Vec::new();
    let mut outputs = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("#pragma TASS output") {
            output_next = true;
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if output_next && !is_conditional(t) && !t.is_empty() {
            output_next = false;
            if let Some(name) = declared_name(t) {
                outputs.push((name, t.matches('[').count()));
            }
        }
        if t.starts_with("#pragma TASS input") {
            input_next = true;
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if input_next && !is_conditional(t) && !t.is_empty() {
            input_next = false;
            if let Some(rest) = t.strip_prefix("#define") {
                let name = rest.split_whitespace().next().unwrap_or("").to_string();
                match values.get(&name) {
                    Some(v) => {
                        let _ = writeln!(out, "#define {name} ({v})");
                    }
                    None => {
                        out.push_str(line);
                        out.push('\n');
                    }
                }
                continue;
            }
            match declared_name(t) {
                Some(name) => declared_inputs.push(name),
                None => {
                    return Err(format!(
                        "{origin}:{}: cannot tell which variable `{}` declares",
                        index + 1,
                        t.trim()
                    ))
                }
            }
        }
        let pragma_line = |c: String| format!("{c} /* {} */\n", t.trim_end_matches('\\'));
        if let Some(e) = t.strip_prefix("#pragma TASS assert") {
            out.push_str(&pragma_line(concrete_expr(e, origin, index)?.assert()));
            continue;
        }
        if let Some(e) = t.strip_prefix("#pragma TASS assume") {
            out.push_str(&pragma_line(concrete_expr(e, origin, index)?.assume()));
            continue;
        }
        if t.starts_with("#pragma TASS abstract") {
            return Err(format!(
                "{origin}:{}: an abstract function has no concrete body",
                index + 1
            ));
        }
        if t.starts_with("#pragma TASS") && (t.contains("collective") || t.contains("joint")) {
            return Err(format!(
                "{origin}:{}: `{}` has no C equivalent",
                index + 1,
                t.trim()
            ));
        }
        out.push_str(line);
        out.push('\n');
    }
    let unset_inputs = append_input_setter(&mut out, &declared_inputs, values);
    let unprinted_outputs = append_output_printer(&mut out, &outputs, printing);
    Ok(HarnessFile {
        text: out,
        unset_inputs,
        unprinted_outputs,
    })
}

/// Appends a constructor assigning the declared inputs their witness values; returns
/// the declared inputs that got none.
fn append_input_setter(
    out: &mut String,
    declared: &[String],
    values: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut body = String::new();
    let mut unset = Vec::new();
    for name in declared {
        let mut set = false;
        if let Some(v) = values.get(name) {
            let _ = writeln!(body, "    {name} = {v};");
            set = true;
        }
        let prefix = format!("{name}[");
        for (key, v) in values.range(prefix.clone()..) {
            if !key.starts_with(&prefix) {
                break;
            }
            let _ = writeln!(body, "    {key} = {v};");
            set = true;
        }
        if !set {
            unset.push(name.clone());
        }
    }
    if !body.is_empty() {
        let _ = write!(
            out,
            "\n/* tass replay: the witness's input values, set before main runs. */\n\
             __attribute__((constructor)) static void tass_replay_set_inputs(void) {{\n{body}}}\n"
        );
    }
    unset
}

/// Appends the code printing the outputs (scalars and one-dimensional arrays, each
/// value by its C type through `_Generic`); returns the outputs it cannot print.
fn append_output_printer(
    out: &mut String,
    outputs: &[(String, usize)],
    printing: OutputPrinting,
) -> Vec<String> {
    if printing == OutputPrinting::Off || outputs.is_empty() {
        return Vec::new();
    }
    let mut body = String::new();
    let mut unprinted = Vec::new();
    for (name, dims) in outputs {
        match dims {
            0 => {
                let _ = writeln!(body, "    TASS_REPLAY_PRINT(\"{name}\", {name});");
            }
            1 => {
                let _ = writeln!(
                    body,
                    "    for (unsigned long i = 0; i < sizeof {name} / sizeof {name}[0]; i++) {{\n\
                     \x20       char key[80];\n\
                     \x20       snprintf(key, sizeof key, \"{name}[%lu]\", i);\n\
                     \x20       TASS_REPLAY_PRINT(key, {name}[i]);\n\
                     \x20   }}"
                );
            }
            2 => {
                let _ = writeln!(
                    body,
                    "    for (unsigned long i = 0; i < sizeof {name} / sizeof {name}[0]; i++)\n\
                     \x20       for (unsigned long j = 0; j < sizeof {name}[0] / sizeof {name}[0][0]; j++) {{\n\
                     \x20           char key[80];\n\
                     \x20           snprintf(key, sizeof key, \"{name}[%lu][%lu]\", i, j);\n\
                     \x20           TASS_REPLAY_PRINT(key, {name}[i][j]);\n\
                     \x20       }}"
                );
            }
            _ => unprinted.push(name.clone()),
        }
    }
    let _ = write!(
        out,
        "\n/* tass replay: the program's outputs, printed for the comparison. */\n\
         #define TASS_REPLAY_PRINT(key, v) _Generic((v), \\\n\
         \x20   float: printf(\"{OUTPUT_MARK}%s = %.17g\\n\", key, (double)(v)), \\\n\
         \x20   double: printf(\"{OUTPUT_MARK}%s = %.17g\\n\", key, (double)(v)), \\\n\
         \x20   long double: printf(\"{OUTPUT_MARK}%s = %.17Lg\\n\", key, (long double)(v)), \\\n\
         \x20   default: printf(\"{OUTPUT_MARK}%s = %lld\\n\", key, (long long)(v)))\n\
         static void tass_replay_print_outputs(void) {{\n{body}    fflush(stdout);\n}}\n"
    );
    match printing {
        OutputPrinting::AtExit => out.push_str(
            "__attribute__((destructor)) static void tass_replay_outputs_at_exit(void) {\n\
             \x20   tass_replay_print_outputs();\n}\n",
        ),
        OutputPrinting::AtMpiFinalize => out.push_str(
            "int MPI_Finalize(void) {\n\
             \x20   int rank = 0;\n\
             \x20   PMPI_Comm_rank(MPI_COMM_WORLD, &rank);\n\
             \x20   if (rank == 0)\n\
             \x20       tass_replay_print_outputs();\n\
             \x20   return PMPI_Finalize();\n}\n",
        ),
        OutputPrinting::Off => {}
    }
    unprinted
}

struct ConcreteExpr(String);

impl ConcreteExpr {
    fn assert(&self) -> String {
        format!("assert({});", self.0)
    }

    fn assume(&self) -> String {
        format!(
            "if (!({e})) {{ fprintf(stderr, \"tass replay: the assumption `%s` does not hold\\n\", \"{q}\"); exit({ASSUME_FAILED_EXIT}); }}",
            e = self.0,
            q = self.0.replace('\\', "\\\\").replace('"', "\\\"")
        )
    }
}

fn concrete_expr(expr: &str, origin: &str, index: usize) -> Result<ConcreteExpr, Unreplayable> {
    let e = expr.trim().trim_end_matches('\\').trim();
    for word in ["forall", "exists", "PROC", "NPROCS", "PID", "spec.", "$"] {
        if e.contains(word) {
            return Err(format!(
                "{origin}:{}: `{e}` uses `{word}`, which C cannot evaluate",
                index + 1
            ));
        }
    }
    Ok(ConcreteExpr(e.to_string()))
}

/// The names the witness gives values to that no file declared as an input
/// (a `-i` value of a macro the program does not mark, say): reported, not fatal.
pub(crate) fn unused_values(files: &[String], values: &BTreeMap<String, String>) -> Vec<String> {
    let mut seen = BTreeSet::new();
    for text in files {
        for key in values.keys() {
            let base = key.split('[').next().unwrap_or(key);
            if text.contains(base) {
                seen.insert(key.clone());
            }
        }
    }
    values
        .keys()
        .filter(|k| !seen.contains(*k))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defines_declarations_and_pragmas_become_concrete() {
        let src = "#pragma TASS input int\n#define B 3\n#pragma TASS input {0 <= N} int\n#define N 3\n\
                   #pragma TASS input\nint a[4];\n#pragma TASS input\ndouble x;\n\
                   int main(void) {\n#pragma TASS assume N > 0\n#pragma TASS assert N < B\nreturn 0; }\n";
        let values = BTreeMap::from([
            ("N".to_string(), "2".to_string()),
            ("a[1]".to_string(), "5".to_string()),
        ]);
        let h = harness_file(src, "p.c", &values, OutputPrinting::Off).unwrap();
        assert!(h.text.starts_with("#line 1 \"p.c\"\n"), "{}", h.text);
        assert!(h.text.contains("#define B 3\n"), "{}", h.text);
        assert!(h.text.contains("#define N (2)\n"), "{}", h.text);
        assert!(h.text.contains("assert(N < B);"), "{}", h.text);
        assert!(h.text.contains("if (!(N > 0))"), "{}", h.text);
        assert!(h.text.contains("    a[1] = 5;\n"), "{}", h.text);
        assert_eq!(h.unset_inputs, vec!["x".to_string()]);
        // One line in, one line out: the original line numbers stay right.
        assert_eq!(
            h.text.lines().position(|l| l.contains("assert(N < B)")),
            Some(11)
        );
    }

    #[test]
    fn quantifiers_and_collective_pragmas_cannot_be_replayed() {
        let q = "#pragma TASS assert forall {int k | 0 <= k && k < 3} a[k] > 0\n";
        assert!(
            harness_file(q, "q.c", &BTreeMap::new(), OutputPrinting::Off)
                .unwrap_err()
                .contains("forall")
        );
        let c = "#pragma TASS collective assert c1 x == 0\n";
        assert!(harness_file(c, "c.c", &BTreeMap::new(), OutputPrinting::Off).is_err());
    }

    #[test]
    fn witness_values_become_c_numbers() {
        use serde_json::json;
        assert_eq!(c_value(&json!(3)), Some("3".into()));
        assert_eq!(c_value(&json!("-0.5")), Some("-0.5".into()));
        assert_eq!(c_value(&json!("1/3")), Some("((double)(1) / (3))".into()));
        assert_eq!(c_value(&json!("x + 1")), None);
    }
}
