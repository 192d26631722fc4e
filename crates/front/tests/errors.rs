//! Malformed and unsupported inputs: each gives a diagnostic
//! `file:line:column: error: ...` naming the problem, never a panic.

use std::path::PathBuf;
use tass_front::api::*;

/// (name, source, expected line, expected column, expected words in the message)
const CASES: &[(&str, &str, u32, u32, &str)] = &[
    ("syntax_error", "int main() {\n  int x = ;\n  return 0;\n}\n", 2, 10, "syntax error"),
    ("missing_semicolon", "int main() {\n  int x = 1\n  return x;\n}\n", 2, 12, "missing `;`"),
    ("unbalanced_brace", "int main() {\n  if (1) { return 0;\n}\n", 3, 2, "syntax error: missing `}`"),
    ("unknown_identifier", "int main() {\n  return y + 1;\n}\n", 2, 10, "unknown identifier `y`"),
    ("unknown_function", "int main() {\n  frob(3);\n  return 0;\n}\n", 2, 3, "unknown function `frob`"),
    ("mpi_without_header", "int main() {\n  MPI_Init(0, 0);\n  return 0;\n}\n", 2, 3, "#include <mpi.h>"),
    ("struct_arithmetic", "struct s { int a; };\nint main() {\n  struct s v;\n  return v + 1;\n}\n", 4, 10, "invalid operands to `+`"),
    ("dereference_int", "int main() {\n  int x = 0;\n  return *x;\n}\n", 3, 10, "cannot dereference"),
    ("no_such_field", "struct s { int a; };\nint main() {\n  struct s v;\n  return v.b;\n}\n", 4, 10, "has no field `b`"),
    ("openmp", "int main() {\n  int s = 0;\n#pragma omp parallel for\n  for (int i = 0; i < 4; i++) s += i;\n  return s;\n}\n", 3, 9, "`#pragma omp` (OpenMP threads) is not supported"),
    ("goto_unknown_label", "int main() {\n  goto done;\n  don: return 0;\n}\n", 2, 3, "no label `done:`"),
    ("duplicate_label", "int main() {\n  x: ;\n  { x: return 0; }\n}\n", 3, 5, "duplicate label `x`"),
    ("union_initializer", "union u { int i; float f; };\nint main() {\n  union u x = { 1, 2 };\n  return x.i;\n}\n", 3, 15, "an initializer list for a union holds one value"),
    ("offsetof_not_a_member", "struct s { int a; };\nint main() {\n  return (int)offsetof(struct s, b);\n}\n", 3, 15, "has no member named `b`"),
    ("pointer_to_function_pointer", "int twice(int x) { return 2 * x; }\nint (**fp)(int);\nint main() { return 0; }\n", 2, 6, "pointers to function pointers are not supported"),
    ("library_function_as_value", "#include <stdlib.h>\nint main() {\n  int (*f)(int) = abs;\n  return f(1);\n}\n", 3, 19, "a pointer to the library function `abs` is not supported"),
    ("function_pointer_field_call", "struct ops { int (*f)(int); };\nint twice(int x) { return 2 * x; }\nint main() {\n  struct ops o;\n  o.f = twice;\n  return o.f(2);\n}\n", 6, 10, "supported only through a variable"),
    ("inline_assembly", "int main() {\n  __asm__(\"nop\");\n  return 0;\n}\n", 2, 3, "assembly"),
    ("thread_local", "_Thread_local int counter;\nint main() { return 0; }\n", 1, 15, "thread-local storage (threads) is not supported"),
    ("setjmp_header", "#include <setjmp.h>\nint main() { return 0; }\n", 1, 1, "setjmp.h"),
    ("missing_include", "#include \"nothere.h\"\nint main() { return 0; }\n", 1, 1, "nothere.h"),
    ("unterminated_if", "#if 1\nint main() { return 0; }\n", 1, 1, "#if"),
    ("recursive_macro", "#define twice(x) twice(x) + twice(x)\nint main() {\n  return twice(2);\n}\n", 3, 10, "unknown function `twice`"),
    ("mutually_recursive_macros", "#define A B\n#define B A\nint main() {\n  return A;\n}\n", 4, 10, "unknown identifier"),
    ("bad_pragma_keyword", "#pragma TASS frobnicate x\nint x;\nint main() { return 0; }\n", 1, 14, "unknown TASS pragma `frobnicate`"),
    ("pragma_without_declaration", "int main() { return 0; }\n#pragma TASS output\n", 2, 13, "not followed by a declaration"),
    ("pragma_unknown_identifier", "#pragma TASS input {M > 0}\nint N;\nint main() { return N; }\n", 1, 21, "unknown identifier `M`"),
    ("pragma_malformed_quantifier", "int main() {\n#pragma TASS assert forall {i | i > 0} i > 1\n  return 0;\n}\n", 2, 29, "expected a type"),
    ("pragma_assert_at_file_scope", "#pragma TASS assert 1 > 0\nint x;\nint main() { return 0; }\n", 1, 13, "must be inside a function"),
    ("input_macro_without_type", "#pragma TASS input {N > 0}\n#define N 4\nint main() { return N; }\n", 1, 1, "needs a type"),
    ("invariant_not_before_loop", "int main() {\n  int i = 0;\n#pragma TASS collective invariant inv i >= 0\n  i = 1;\n  return i;\n}\n", 4, 3, "immediately followed by a while"),
    ("unsequenced_index_store", "int main() {\n  int a[4] = {0}, i = 0;\n  a[i++] = i;\n  return a[0];\n}\n", 3, 3, "modifies `i` and also reads `i` without a sequence point"),
    ("unsequenced_call_arguments", "int f(int x, int y) { return x - y; }\nint main() {\n  int i = 0;\n  return f(i, i++);\n}\n", 4, 10, "undefined in C"),
    ("assign_to_input", "#pragma TASS input\nint N;\nint main() {\n  N = 3;\n  return 0;\n}\n", 4, 3, "inputs are read-only"),
    ("wrong_argument_count", "#include <mpi.h>\nint main() {\n  int x;\n  MPI_Send(&x, 1);\n  return 0;\n}\n", 4, 3, "expects 6 argument(s), 2 given"),
    ("malloc_not_assigned", "#include <stdlib.h>\nint main() {\n  malloc(4);\n  return 0;\n}\n", 3, 3, "must be assigned directly to a pointer"),
    ("no_main", "int helper(void) { return 1; }\n", 1, 1, "no `main` function"),
    ("break_outside_loop", "int main() {\n  break;\n  return 0;\n}\n", 2, 3, "`break` outside a loop"),
    ("void_returns_value", "void f(void) {\n  return 3;\n}\nint main() { f(); return 0; }\n", 2, 3, "cannot return a value"),
    ("pointer_integer_cast", "int main() {\n  int x = 0;\n  int *p = (int *) 42;\n  return x;\n}\n", 3, 12, "integers and pointers"),
    ("undefined_function", "int helper(int);\nint main() {\n  return helper(2);\n}\n", 3, 10, "declared but never defined"),
    ("incompatible_pointers", "int main() {\n  double d = 1.0;\n  int *p = &d;\n  return *p;\n}\n", 3, 12, "cannot convert"),
];

fn check(name: &str, src: &str) -> Diagnostics {
    let file = PathBuf::from(format!("{name}.c"));
    match load_sources(&[(file, src.to_string())], &FrontOptions::default()) {
        Ok(_) => panic!("`{name}` should have been rejected"),
        Err(d) => d,
    }
}

#[test]
fn each_bad_input_gives_a_positioned_diagnostic() {
    assert!(CASES.len() >= 20);
    let mut problems = Vec::new();
    for (name, src, line, col, words) in CASES {
        let d = check(name, src);
        let first = d.first().expect("at least one diagnostic");
        let head = first.headline();
        let want_prefix = format!("{name}.c:{line}:{col}: error: ");
        if !head.starts_with(&want_prefix) || !head.contains(words) {
            problems.push(format!(
                "{name}: got `{head}`, want `{want_prefix}...{words}...`"
            ));
        }
        // the display shows the source line and a caret
        let shown = first.to_string();
        if first.source_line.is_some() && !shown.contains('^') {
            problems.push(format!("{name}: no caret in `{shown}`"));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn several_syntax_errors_are_all_reported() {
    let d = check(
        "many",
        "int main() {\n  int x = ;\n  int y = ;\n  return 0;\n}\n",
    );
    assert!(d.0.len() >= 2, "{d}");
    assert_eq!(d.0[0].line, 2);
    assert_eq!(d.0[1].line, 3);
}

#[test]
fn unreadable_file_is_a_diagnostic() {
    let d = load_program(
        &[PathBuf::from("/nonexistent/dir/x.c")],
        &FrontOptions::default(),
    )
    .unwrap_err();
    assert!(d.to_string().contains("cannot read the file"), "{d}");
}

#[test]
fn diagnostic_display_has_source_line_and_caret() {
    let d = check("caret", "int main() {\n  return zz;\n}\n");
    assert_eq!(
        d.to_string(),
        "caret.c:2:10: error: unknown identifier `zz`\n  |\n2 |   return zz;\n  |          ^"
    );
}

#[test]
fn deeply_nested_input_is_an_error_not_a_crash() {
    let src = format!(
        "int main() {{ int x = {}1{}; return x; }}",
        "(".repeat(20000),
        ")".repeat(20000)
    );
    let d = check("deep", &src);
    assert!(d.0[0].message.contains("nested too deeply"), "{d}");
    // the shown line is cut to a window around the column
    assert!(d.to_string().lines().nth(1).unwrap().len() < 140);
    // moderately deep code is fine
    let ok = format!(
        "int main() {{ int x = 1{}; return x; }}",
        " + x".repeat(500)
    );
    assert!(load_sources(&[(PathBuf::from("ok.c"), ok)], &FrontOptions::default()).is_ok());
}
