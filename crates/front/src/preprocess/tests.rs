use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use super::*;

const MAIN: &str = "/virtual/main.c";

fn builtins(name: &str) -> Option<&'static str> {
    match name {
        "mpi.h" => Some("int MPI_Init(int *argc, char ***argv);\n#define MPI_COMM_WORLD 0\n"),
        "assert.h" => Some("#define assert(e) __tass_assert(e)\n"),
        "guarded.h" => Some("#ifndef GUARDED_H\n#define GUARDED_H\nint guarded;\n#endif\n"),
        _ => None,
    }
}

fn opts() -> PreprocessOptions {
    PreprocessOptions {
        include_dirs: Vec::new(),
        defines: Vec::new(),
        builtin_header: builtins,
    }
}

/// Preprocesses and checks the line-map invariant that every caller relies on.
fn run_with(
    path: &Path,
    src: &str,
    o: &PreprocessOptions,
) -> Result<Preprocessed, PreprocessError> {
    let r = preprocess(path, src, o);
    if let Ok(p) = &r {
        assert_eq!(
            p.line_origins.len(),
            p.text.lines().count(),
            "one origin per output line:\n{}",
            p.text
        );
        assert!(p.text.is_empty() || p.text.ends_with('\n'));
        let n = lex::line_count(src).max(1);
        for o in p.line_origins.iter().filter(|o| o.file == path) {
            assert!(
                (1..=n).contains(&o.line),
                "origin line {} outside 1..={n}",
                o.line
            );
        }
    }
    r
}

fn pp(src: &str) -> Preprocessed {
    match run_with(Path::new(MAIN), src, &opts()) {
        Ok(p) => p,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

fn pp_err(src: &str) -> PreprocessError {
    match run_with(Path::new(MAIN), src, &opts()) {
        Ok(p) => panic!("expected an error, got:\n{}", p.text),
        Err(e) => e,
    }
}

/// The output with all whitespace collapsed to single spaces.
fn flat(p: &Preprocessed) -> String {
    p.text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn lines(p: &Preprocessed) -> Vec<&str> {
    p.text.lines().map(str::trim_end).collect()
}

fn origin(file: &str, line: u32) -> LineOrigin {
    LineOrigin {
        file: PathBuf::from(file),
        line,
    }
}

/// A fresh folder under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("tass-pre-{}-{n}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }
    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).expect("temp subdir");
        }
        std::fs::write(&p, text).expect("write temp file");
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ---------------------------------------------------------------- macros

#[test]
fn object_like_macro_is_replaced() {
    let p = pp("#define N 10\nint a[N];\n");
    assert_eq!(lines(&p), vec!["", "int a[10];"]);
}

#[test]
fn function_like_macro_takes_arguments() {
    let p = pp("#define MAX(a, b) ((a) > (b) ? (a) : (b))\nint m = MAX(x + 1, f(y, z));\n");
    assert_eq!(
        flat(&p),
        "int m = ((x + 1) > (f(y, z)) ? (x + 1) : (f(y, z)));"
    );
}

#[test]
fn function_like_name_without_parenthesis_is_not_a_call() {
    let p = pp("#define f(x) [x]\nint f; f (1) f\n(2)\n");
    assert_eq!(flat(&p), "int f; [1] [2]");
}

#[test]
fn stringizing_escapes_quotes_and_collapses_spaces() {
    let p = pp("#define S(x) #x\nS(  a   +  \"q\\n\"  'c' );\n");
    assert_eq!(flat(&p), r#""a + \"q\\n\" 'c'" ;"#);
}

#[test]
fn token_pasting_with_and_without_empty_arguments() {
    let p = pp("#define CAT(a, b) a ## b\nCAT(foo, 12) CAT(, x) CAT(y, ) CAT(,) CAT(<, <=)\n");
    assert_eq!(flat(&p), "foo12 x y <<=");
}

#[test]
fn invalid_paste_is_an_error() {
    let e = pp_err("#define CAT(a, b) a ## b\nint x = CAT(+, /);\n");
    assert_eq!((e.line, e.column), (2, 9));
    assert!(
        e.message.contains("pasting \"+\" and \"/\""),
        "{}",
        e.message
    );
}

#[test]
fn variadic_macros_and_gnu_comma_swallowing() {
    let p = pp(concat!(
        "#define LOG(fmt, ...) printf(fmt, __VA_ARGS__)\n",
        "#define LOG2(fmt, ...) printf(fmt, ## __VA_ARGS__)\n",
        "LOG(\"%d %d\", 1, 2); LOG2(\"x\"); LOG2(\"%d\", 3);\n"
    ));
    assert_eq!(
        flat(&p),
        r#"printf("%d %d", 1, 2); printf("x"); printf("%d", 3);"#
    );
}

#[test]
fn self_reference_is_not_expanded_again() {
    let p = pp("#define A A\n#define B C\n#define C B\n#define f(x) f(x) + 1\nA B C f(f(2))\n");
    assert_eq!(flat(&p), "A B C f(f(2) + 1) + 1");
}

#[test]
fn rescanning_finds_calls_formed_by_expansion() {
    let p =
        pp("#define f(x) (x + 1)\n#define g f\n#define h f(\n#define LP (\ng(2) h 3) g LP 4)\n");
    // `g LP` is not a call: the token after `f` is `LP`, not `(`.
    assert_eq!(flat(&p), "(2 + 1) (3 + 1) f ( 4)");
}

/// The worked example of C99 6.10.3.5 (EXAMPLE 3), compared without whitespace.
#[test]
fn c99_standard_macro_example() {
    let src = concat!(
        "#define x 3\n",
        "#define f(a) f(x * (a))\n",
        "#undef x\n",
        "#define x 2\n",
        "#define g f\n",
        "#define z z[0]\n",
        "#define h g(~\n",
        "#define m(a) a(w)\n",
        "#define w 0,1\n",
        "#define t(a) a\n",
        "#define p() int\n",
        "#define q(x) x\n",
        "#define r(x,y) x ## y\n",
        "#define str(x) # x\n",
        "f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\n",
        "g(x+(3,4)-w) | h 5) & m\n",
        "(f)^m(m);\n",
        "p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };\n",
        "char c[2][6] = { str(hello), str() };\n",
    );
    let expected = concat!(
        "f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);",
        "f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);",
        "int i[] = { 1, 23, 4, 5, };",
        "char c[2][6] = { \"hello\", \"\" };",
    );
    let squash = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    assert_eq!(squash(&pp(src).text), squash(expected));
}

#[test]
fn undef_removes_a_macro() {
    let p = pp("#define N 1\nN\n#undef N\nN\n");
    assert_eq!(lines(&p), vec!["", "1", "", "N"]);
}

#[test]
fn expansion_does_not_glue_tokens_together() {
    let p = pp("#define M -1\n#define E\nint a = -M; int b = x E+E+ y;\n");
    assert_eq!(flat(&p), "int a = - -1; int b = x+ + y;");
}

#[test]
fn tokens_adjacent_in_the_source_stay_adjacent() {
    assert_eq!(lines(&pp("a=0+1-x->y;\n")), vec!["a=0+1-x->y;"]);
    // ... but an expansion that happens to end there does not count.
    let p = pp("#define AB 1e\nAB+1\n");
    assert_eq!(lines(&p), vec!["", "1e +1"]);
}

#[test]
fn macro_call_arguments_may_span_lines() {
    let p = pp("#define ADD(a, b) a + b\nint s = ADD(1,\n   2);\nint t;\n");
    // `;` stays at its source column.
    assert_eq!(lines(&p), vec!["", "int s = 1 + 2", "     ;", "int t;"]);
    assert_eq!(p.line_origins[2], origin(MAIN, 3));
}

#[test]
fn conditionals_inside_macro_arguments_are_honoured() {
    let p = pp("#define ID(x) x\nID(1\n#ifdef NOPE\n+ 2\n#else\n+ 3\n#endif\n)\n");
    assert_eq!(flat(&p), "1 + 3");
}

#[test]
fn unterminated_macro_call_is_an_error_at_the_name() {
    let e = pp_err("#define f(x) x\nint a;\n  int b = f(1,\n 2;\n");
    assert_eq!((e.line, e.column), (3, 11));
    assert!(
        e.message
            .contains("unterminated argument list invoking macro \"f\""),
        "{}",
        e.message
    );
}

#[test]
fn wrong_argument_count_is_an_error() {
    let e = pp_err("#define f(x, y) x\nf(1)\n");
    assert_eq!((e.line, e.column), (2, 1));
    assert!(
        e.message.contains("requires 2 arguments, but only 1 given"),
        "{}",
        e.message
    );
    let e = pp_err("#define g() 0\ng(1)\n");
    assert!(
        e.message.contains("passed 1 arguments, but takes just 0"),
        "{}",
        e.message
    );
}

#[test]
fn exponential_expansion_is_an_error_not_a_hang() {
    let mut src = String::from("#define A0 x\n");
    for i in 1..40 {
        src.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    src.push_str("A39\n");
    let e = pp_err(&src);
    assert_eq!(e.line, 41);
    assert!(e.message.contains("A39"), "{}", e.message);
    assert!(e.message.contains("more than"), "{}", e.message);
}

#[test]
fn bad_define_lines_are_errors() {
    let e = pp_err("#define\n");
    assert!(e.message.contains("macro name missing"), "{}", e.message);
    let e = pp_err("#define 3 x\n");
    assert_eq!((e.line, e.column), (1, 9));
    let e = pp_err("#define f(x) # y\n");
    assert!(
        e.message
            .contains("'#' is not followed by a macro parameter"),
        "{}",
        e.message
    );
    let e = pp_err("#define f(x) ## x\n");
    assert!(
        e.message.contains("'##' cannot appear at either end"),
        "{}",
        e.message
    );
    let e = pp_err("#define f(x, x) x\n");
    assert!(
        e.message.contains("duplicate macro parameter"),
        "{}",
        e.message
    );
}

#[test]
fn redefinition_warns_only_when_different() {
    let p = pp("#define N 1\n#define N 1\n#define N 2\nN\n");
    assert_eq!(p.warnings.len(), 1);
    assert_eq!(p.warnings[0].line, 3);
    assert_eq!(flat(&p), "2");
}

// ---------------------------------------------------------------- conditionals

#[test]
fn if_elif_else_choose_one_branch() {
    let src =
        "#define V 2\n#if V == 1\none\n#elif V == 2\ntwo\n#elif 1\nthree\n#else\nfour\n#endif\n";
    assert_eq!(flat(&pp(src)), "two");
    let src = "#ifdef V\na\n#else\nb\n#endif\n#ifndef V\nc\n#else\nd\n#endif\n";
    assert_eq!(flat(&pp(src)), "b c");
}

#[test]
fn c23_elifdef_and_elifndef() {
    let src = "#define B\n#ifdef A\na\n#elifdef B\nb\n#else\nc\n#endif\n#if 0\n#elifndef B\nd\n#elifndef A\ne\n#endif\n";
    assert_eq!(flat(&pp(src)), "b e");
    assert_eq!(pp_err("#elifdef X\n").message, "#elifdef without #if");
}

#[test]
fn if_expressions_use_the_full_operator_set() {
    let cases = [
        ("1 + 2 * 3 == 7", true),
        ("(1 ? 2 : 0) == 2 && (0 ? 1 : 3) == 3", true),
        ("-1 < 0", true),
        ("-1 < 0u", false),
        ("~0 == -1", true),
        (
            "(1 << 4) == 16 && (256 >> 4) == 16 && (-16 >> 2) == -4",
            true,
        ),
        ("7 / 2 == 3 && 7 % 2 == 1 && -7 / 2 == -3", true),
        ("(5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6", true),
        ("!0 && !!5 == 1", true),
        ("0 || 0", false),
        ("0 && 1 / 0", true == false),
        ("1 || 1 / 0", true),
        (
            "'a' == 97 && '\\n' == 10 && '\\x41' == 65 && '\\101' == 65 && '\\377' < 0",
            true,
        ),
        ("UNKNOWN == 0 && UNKNOWN + 1", true),
        ("0x10 == 16 && 010 == 8 && 0b11 == 3 && 10UL == 10", true),
        ("defined N && defined(N) && !defined M && !defined(M)", true),
        ("N == 4", true),
        ("(2, 3) == 3", true),
        ("18446744073709551615 == -1", true),
        ("__STDC__ && __STDC_VERSION__ == 199901L && __TASS__", true),
    ];
    for (expr, want) in cases {
        let src = format!("#define N 4\n#if {expr}\nyes\n#else\nno\n#endif\n");
        let got = flat(&pp(&src));
        assert_eq!(got, if want { "yes" } else { "no" }, "#if {expr}");
    }
}

#[test]
fn defined_is_evaluated_before_expansion() {
    let p = pp("#define M N\n#if defined M && !defined N\nok\n#endif\n");
    assert_eq!(flat(&p), "ok");
}

#[test]
fn skipped_groups_may_hold_anything() {
    let src = "#if 0\nit's not C at all \"\n#frobnicate\n#if 1\n#error nested\n#endif\n#else\nkept\n#endif\n";
    assert_eq!(flat(&pp(src)), "kept");
}

#[test]
fn elif_after_a_taken_branch_is_not_evaluated() {
    // `1 / 0` would be an error if evaluated.
    assert_eq!(flat(&pp("#if 1\na\n#elif 1 / 0\nb\n#endif\n")), "a");
}

#[test]
fn unterminated_if_is_an_error_at_the_if() {
    let e = pp_err("int a;\n  #if 1\nint b;\n#ifdef X\n#endif\n");
    assert_eq!((e.line, e.column), (2, 3));
    assert!(e.message.contains("unterminated #if"), "{}", e.message);
}

#[test]
fn stray_conditional_directives_are_errors() {
    let e = pp_err("int a;\n#endif\n");
    assert_eq!(
        (e.line, e.column, e.message.as_str()),
        (2, 1, "#endif without #if")
    );
    let e = pp_err("\n\n#else\n");
    assert_eq!((e.line, e.message.as_str()), (3, "#else without #if"));
    let e = pp_err("#elif 1\n");
    assert_eq!(e.message, "#elif without #if");
    let e = pp_err("#if 1\n#else\n#else\n#endif\n");
    assert_eq!((e.line, e.message.as_str()), (3, "#else after #else"));
    let e = pp_err("#if 1\n#else\n#elif 1\n#endif\n");
    assert_eq!((e.line, e.message.as_str()), (3, "#elif after #else"));
}

#[test]
fn bad_if_expressions_report_the_column() {
    let e = pp_err("#if 1 +\n#endif\n");
    assert_eq!((e.line, e.column), (1, 8));
    assert!(e.message.contains("missing operand"), "{}", e.message);
    let e = pp_err("#if (1 2)\n#endif\n");
    assert_eq!((e.line, e.column), (1, 8));
    let e = pp_err("#if 1 / 0\n#endif\n");
    assert_eq!(
        (e.line, e.column, e.message.as_str()),
        (1, 7, "division by zero in #if")
    );
    let e = pp_err("#if 1.5\n#endif\n");
    assert!(e.message.contains("floating-point"), "{}", e.message);
    let e = pp_err("#if\n#endif\n");
    assert!(e.message.contains("no expression"), "{}", e.message);
    let e = pp_err("#if defined\n#endif\n");
    assert!(e.message.contains("requires a macro name"), "{}", e.message);
    let e = pp_err("#if ((1)\n#endif\n");
    assert!(e.message.contains("expected ')'"), "{}", e.message);
}

// ---------------------------------------------------------------- includes

#[test]
fn quoted_include_is_found_next_to_the_includer_and_mapped_back() {
    let d = TempDir::new("inc");
    d.write("defs.h", "/* defs */\nint from_h;\n#define K 7\n");
    let main = d.write("main.c", "");
    let src = "int a;\n#include \"defs.h\"\nint b = K;\n";
    let p = run_with(&main, src, &opts()).expect("preprocess");
    let h = d.0.join("defs.h");
    let got: Vec<(String, PathBuf, u32)> = lines(&p)
        .iter()
        .zip(&p.line_origins)
        .map(|(l, o)| (l.trim().to_string(), o.file.clone(), o.line))
        .collect();
    assert_eq!(
        got,
        vec![
            ("int a;".into(), main.clone(), 1),
            ("".into(), main.clone(), 2),
            ("".into(), h.clone(), 1),
            ("int from_h;".into(), h.clone(), 2),
            ("".into(), h.clone(), 3),
            ("int b = 7;".into(), main.clone(), 3),
        ]
    );
}

#[test]
fn include_dirs_and_builtin_headers() {
    let d = TempDir::new("dirs");
    d.write("inc/lib.h", "int lib;\n#include \"sub.h\"\n");
    d.write("inc/sub.h", "int sub;\n");
    d.write("inc/mpi.h", "int NOT_THE_BUILTIN;\n");
    let mut o = opts();
    o.include_dirs.push(d.0.join("inc"));
    let src = "#include <lib.h>\n#include <mpi.h>\n#include \"assert.h\"\n#include <mpi.h>\nassert(MPI_COMM_WORLD == 0);\n";
    let p = run_with(Path::new(MAIN), src, &o).expect("preprocess");
    assert_eq!(
        flat(&p),
        "int lib; int sub; int MPI_Init(int *argc, char ***argv); int MPI_Init(int *argc, char ***argv); __tass_assert(0 == 0) ;"
    );
    assert_eq!(
        p.included_builtin_headers,
        vec!["mpi.h".to_string(), "assert.h".to_string()]
    );
    assert!(p.line_origins.contains(&origin("<builtin>/mpi.h", 1)));
    assert!(p.line_origins.contains(&LineOrigin {
        file: d.0.join("inc").join("sub.h"),
        line: 1
    }));
}

#[test]
fn computed_include_from_a_macro() {
    let d = TempDir::new("computed");
    d.write("x.h", "int x_h;\n");
    let main = d.write("main.c", "");
    let src = "#define HDR \"x.h\"\n#include HDR\n#define SYS <mpi.h>\n#include SYS\n";
    let p = run_with(&main, src, &opts()).expect("preprocess");
    assert_eq!(flat(&p), "int x_h; int MPI_Init(int *argc, char ***argv);");
}

#[test]
fn missing_include_names_the_file_and_the_places_searched() {
    let d = TempDir::new("missing");
    let mut o = opts();
    o.include_dirs.push(d.0.join("extra"));
    let main = d.write("main.c", "");
    let e = run_with(&main, "int a;\n  #include \"nothere.h\"\n", &o).expect_err("missing include");
    assert_eq!((e.file.clone(), e.line, e.column), (main.clone(), 2, 3));
    assert!(e.message.contains("\"nothere.h\""), "{}", e.message);
    assert!(
        e.message.contains(&d.0.display().to_string()),
        "{}",
        e.message
    );
    assert!(
        e.message.contains(&d.0.join("extra").display().to_string()),
        "{}",
        e.message
    );
    assert!(e.message.contains("built-in headers"), "{}", e.message);
    let e = run_with(&main, "#include <nope.h>\n", &o).expect_err("missing include");
    assert!(e.message.contains("<nope.h>"), "{}", e.message);
}

#[test]
fn recursive_include_is_an_error() {
    let d = TempDir::new("rec");
    d.write("a.h", "int a;\n#include \"b.h\"\n");
    d.write("b.h", "\n#include \"a.h\"\n");
    let main = d.write("main.c", "");
    let e = run_with(&main, "#include \"a.h\"\n", &opts()).expect_err("recursion");
    assert!(
        e.message.contains("nested more than 200 levels"),
        "{}",
        e.message
    );
    assert!(e.message.contains("includes itself"), "{}", e.message);
    assert!(e.file.ends_with("a.h") || e.file.ends_with("b.h"));
    assert_eq!(e.line, 2);
}

#[test]
fn include_guards_and_pragma_once_include_once() {
    let d = TempDir::new("once");
    d.write("once.h", "#pragma once\nint once;\n");
    let main = d.write("main.c", "");
    let src =
        "#include \"once.h\"\n#include \"once.h\"\n#include <guarded.h>\n#include <guarded.h>\n";
    let p = run_with(&main, src, &opts()).expect("preprocess");
    assert_eq!(flat(&p), "int once; int guarded;");
}

#[test]
fn include_inside_macro_arguments_is_refused() {
    let e = pp_err("#define f(x) x\nf(\n#include <mpi.h>\n)\n");
    assert_eq!(e.line, 3);
    assert!(
        e.message.contains("#include inside the arguments"),
        "{}",
        e.message
    );
}

// ---------------------------------------------------------------- other directives

#[test]
fn command_line_defines() {
    let mut o = opts();
    o.defines = vec![
        ("FLAG".into(), None),
        ("N".into(), Some("16".into())),
        ("SQ(x)".into(), Some("((x)*(x))".into())),
        ("EMPTY".into(), Some(String::new())),
    ];
    let p = run_with(
        Path::new(MAIN),
        "#if FLAG\nint a[N]; int b = SQ(3) EMPTY;\n#endif\n",
        &o,
    )
    .expect("pp");
    assert_eq!(flat(&p), "int a[16]; int b = ((3)*(3)) ;");
    o.defines = vec![("3bad".into(), None)];
    let e = run_with(Path::new(MAIN), "", &o).expect_err("bad -D");
    assert_eq!(e.file, PathBuf::from(COMMAND_LINE));
}

#[test]
fn error_directive_reports_its_text_and_place() {
    let e = pp_err("int a;\n#if 1\n  #error N must be /* c */ positive\n#endif\n");
    assert_eq!(
        (e.file.clone(), e.line, e.column),
        (PathBuf::from(MAIN), 3, 3)
    );
    assert_eq!(e.message, "#error N must be positive");
    assert_eq!(
        e.to_string(),
        "/virtual/main.c:3:3: error: #error N must be positive"
    );
}

#[test]
fn warning_directive_is_recorded() {
    let p = pp("#warning check this\nint a;\n");
    assert_eq!(p.warnings.len(), 1);
    assert_eq!(p.warnings[0].message, "#warning check this");
    assert_eq!(
        p.warnings[0].to_string(),
        "/virtual/main.c:1:1: warning: #warning check this"
    );
    assert_eq!(lines(&p), vec!["", "int a;"]);
}

#[test]
fn line_directive_changes_line_and_file_macros() {
    let p = pp("__LINE__\n#line 100 \"gen.c\"\n__LINE__ __FILE__\n__LINE__\n");
    assert_eq!(lines(&p), vec!["1", "", "100      \"gen.c\"", "101"]);
    // The line map stays physical.
    assert_eq!(p.line_origins[2], origin(MAIN, 3));
}

#[test]
fn unknown_directive_is_an_error() {
    let e = pp_err("\n  #  frobnicate x\n");
    assert_eq!((e.line, e.column), (2, 6));
    assert_eq!(e.message, "invalid preprocessing directive #frobnicate");
    // ... but the null directive and #ident are fine.
    assert_eq!(flat(&pp("#\n#ident \"x\"\nok\n")), "ok");
}

#[test]
fn predefined_macros() {
    let p = pp("int v = __STDC_VERSION__; int s = __STDC__ + __TASS__;\nconst char *f = __FILE__; int l = __LINE__;\n");
    assert_eq!(
        flat(&p),
        "int v = 199901L ; int s = 1 + 1 ; const char *f = \"/virtual/main.c\"; int l = 2;"
    );
    let p = pp("__DATE__ __TIME__\n");
    assert_eq!(lines(&p), vec!["\"Jan  1 1970\" \"00:00:00\""]);
    let p = pp("#define L __LINE__\n\n\nL\n");
    assert_eq!(flat(&p), "4");
    let e = pp_err("#define __LINE__ 3\n");
    assert!(e.message.contains("built-in macro"), "{}", e.message);
}

#[test]
fn other_pragmas_are_dropped() {
    let p = pp("#pragma GCC poison x\n#pragma STDC FP_CONTRACT ON\nint a;\n");
    assert_eq!(lines(&p), vec!["", "", "int a;"]);
}

#[test]
fn openmp_pragmas_are_kept_for_the_translator_to_reject() {
    let p = pp("#pragma omp parallel for\nint a;\n");
    let first: String = lines(&p)[0].split_whitespace().collect();
    assert_eq!(first, "#pragmaompparallelfor");
    assert_eq!(lines(&p)[1], "int a;");
}

// ---------------------------------------------------------------- lexical structure

#[test]
fn line_splices_join_lines_and_keep_the_line_map() {
    let p = pp("#define LONG 1 + \\\n  2\nint a = LONG;\nint b \\\n= 3;\nint c;\n");
    assert_eq!(
        lines(&p),
        vec!["", "", "int a = 1 + 2;", "int b", "= 3;", "int c;"]
    );
    assert_eq!(p.line_origins[3], origin(MAIN, 4));
    assert_eq!(p.line_origins[5], origin(MAIN, 6));
    // A splice inside an identifier.
    assert_eq!(flat(&pp("in\\\nt x;\n")), "int x;");
}

#[test]
fn comments_become_whitespace_and_keep_lines() {
    let src =
        "int a; /* one\n two\n three */ int b; // tail \\\n still comment\nint c = 1/**/-1;\n";
    let p = pp(src);
    assert_eq!(
        lines(&p),
        vec!["int a;", "", "          int b;", "", "int c = 1    -1;"]
    );
    assert_eq!(p.line_origins[4], origin(MAIN, 5));
}

#[test]
fn comment_markers_inside_literals_are_text() {
    let p = pp("char *s = \"/* not */ // a comment\"; char c = '/'; char d = '\"';\n");
    assert_eq!(
        flat(&p),
        "char *s = \"/* not */ // a comment\"; char c = '/'; char d = '\"';"
    );
}

#[test]
fn unterminated_comment_is_an_error_at_its_start() {
    let e = pp_err("int a;\nint b; /* open\n\n");
    assert_eq!((e.line, e.column), (2, 8));
    assert!(e.message.contains("unterminated comment"), "{}", e.message);
}

#[test]
fn unterminated_literal_in_code_is_an_error() {
    let e = pp_err("int a;\nchar *s = \"abc;\n");
    assert_eq!((e.line, e.column), (2, 11));
    assert!(
        e.message.contains("missing terminating \""),
        "{}",
        e.message
    );
}

#[test]
fn columns_of_unexpanded_tokens_are_kept() {
    let p = pp("#define N 5\n\tint   x =  N ;   y\n");
    assert_eq!(lines(&p)[1], " int   x =  5 ;   y");
    // After an expansion that shrinks, later tokens are padded back to their column.
    let p = pp("#define LONGER_NAME 1\nLONGER_NAME z\n");
    assert_eq!(lines(&p)[1], "1           z");
    // After one that grows, they follow with a space.
    let p = pp("#define S 1 + 2 + 3\nS z\n");
    assert_eq!(lines(&p)[1], "1 + 2 + 3 z");
}

#[test]
fn crlf_and_missing_final_newline() {
    let p = pp("int a;\r\n#define X 2\r\nint b = X;");
    assert_eq!(lines(&p), vec!["int a;", "", "int b = 2;"]);
    assert_eq!(p.text, "int a;\n\nint b = 2;\n");
}

#[test]
fn empty_input_gives_empty_output() {
    let p = pp("");
    assert_eq!(p.text, "");
    assert!(p.line_origins.is_empty());
}

#[test]
fn output_has_one_line_per_source_line() {
    let src = "#define A 1\n\n#if A\nint x;\n#else\nint y;\n#endif\n\nint z;\n";
    let p = pp(src);
    assert_eq!(p.line_origins.len(), 9);
    for (i, o) in p.line_origins.iter().enumerate() {
        assert_eq!(*o, origin(MAIN, i as u32 + 1));
    }
}

// ---------------------------------------------------------------- TASS pragmas

#[test]
fn tass_pragma_is_kept_with_macros_expanded_after_the_keywords() {
    let src = concat!(
        "#include <assert.h>\n",
        "#define N 8\n",
        "#pragma TASS assert (x < N)\n",
        "#pragma TASS collective assert N x == N\n",
        "#pragma TASS assume 0 <= \\\n   x && x < N\n",
        "int x;\n",
    );
    let p = pp(src);
    let l = lines(&p);
    let pos = |needle: &str| l.iter().position(|s| s.contains(needle)).expect(needle);
    assert_eq!(l[pos("TASS assert")], "#pragma TASS assert (x < 8)");
    assert_eq!(
        l[pos("collective")],
        "#pragma TASS collective assert N x == 8"
    );
    let k = pos("assume");
    assert_eq!(l[k], "#pragma TASS assume 0 <= x && x < 8");
    assert_eq!(p.line_origins[k], origin(MAIN, 5));
    assert_eq!(p.line_origins[k + 1], origin(MAIN, 6));
    assert_eq!(l[k + 2], "int x;");
    assert_eq!(p.line_origins[k + 2], origin(MAIN, 7));
}

#[test]
fn tass_input_define_pair_becomes_an_input_macro() {
    let src = concat!(
        "#define MAXN 100\n",
        "#pragma TASS input {0 < N && N <= MAXN} int\n",
        "\n",
        "#define N 10\n",
        "int a[N];\n",
        "#pragma TASS assert N > 0\n",
        "#define TWICE (2 * N)\n",
        "int b = TWICE;\n",
    );
    let p = pp(src);
    assert_eq!(
        p.input_macros,
        vec![InputMacro {
            name: "N".into(),
            pragma_text: "{0 < N && N <= 100} int".into(),
            file: PathBuf::from(MAIN),
            line: 2,
        }]
    );
    assert_eq!(
        lines(&p),
        vec![
            "",
            "",
            "",
            "",
            "int a[N];",
            "#pragma TASS assert N > 0",
            "",
            "int b = (2 * N);"
        ]
    );
}

#[test]
fn tass_input_names_are_never_expanded_even_if_defined_elsewhere() {
    let mut o = opts();
    o.defines = vec![("N".into(), Some("5".into()))];
    let src = "#pragma TASS input int\n#define N 10\n#define N 11\nint a[N];\n#if defined(N)\nbad\n#endif\n";
    let p = run_with(Path::new(MAIN), src, &o).expect("pp");
    assert_eq!(p.input_macros.len(), 1);
    assert_eq!(flat(&p), "int a[N];");
    assert_eq!(p.warnings.len(), 1);
    assert_eq!(p.warnings[0].line, 3);
    assert!(
        p.warnings[0].message.contains("TASS input"),
        "{}",
        p.warnings[0].message
    );
}

#[test]
fn tass_input_before_a_declaration_is_kept() {
    let p = pp("#define LIM 4\n#pragma TASS input {n < LIM}\nint n;\n");
    assert!(p.input_macros.is_empty());
    assert_eq!(
        lines(&p),
        vec!["", "#pragma TASS input {n < 4  }", "int n;"]
    );
}

#[test]
fn tass_input_before_a_function_like_define_is_not_an_input() {
    let p = pp("#pragma TASS input int\n#define F(x) x\nint y = F(2);\n");
    assert!(p.input_macros.is_empty());
    assert_eq!(
        lines(&p),
        vec!["#pragma TASS input int", "", "int y = 2   ;"]
    );
}

#[test]
fn tass_pragma_in_skipped_group_is_ignored() {
    let p = pp("#if 0\n#pragma TASS input int\n#define N 3\n#endif\nN\n");
    assert!(p.input_macros.is_empty());
    assert_eq!(flat(&p), "N");
}

// ---------------------------------------------------------------- scale

#[test]
fn large_generated_file_keeps_its_line_map() {
    let mut src = String::from("#define ADD(a, b) ((a) + (b))\n#define K 3\n");
    for i in 0..5000 {
        if i % 100 == 0 {
            src.push_str("#if K > 2\n");
            src.push_str(&format!("int v{i} = ADD(K, {i}); /* c */\n"));
            src.push_str("#endif\n");
        } else {
            src.push_str(&format!("int v{i} = ADD(v{}, K);\n", i - 1));
        }
    }
    let p = pp(&src);
    assert_eq!(p.line_origins.len() as u32, lex::line_count(&src));
    let l = lines(&p);
    assert_eq!(l[3], "int v0 = ((3) + (0));");
    assert_eq!(l[5], "int v1 = ((v0) + (3));");
    assert_eq!(p.line_origins[5], origin(MAIN, 6));
}

#[test]
fn tokens_after_splices_and_old_mac_line_ends_have_physical_positions() {
    let toks = lex::tokenize("ab\\\ncd e\r\"x\\\ny\" \\ \n f", 0).expect("lex");
    let got: Vec<(lex::Kind, &str, u32, u32)> = toks
        .iter()
        .map(|t| (t.kind, &*t.text, t.pos.line, t.pos.col))
        .collect();
    use lex::Kind::*;
    assert_eq!(
        got,
        vec![
            (Ident, "abcd", 1, 1),
            (Ident, "e", 2, 4),
            (Newline, "\n", 2, 5),
            (Str, "\"xy\"", 3, 1),
            (Ident, "f", 5, 2),
            (Newline, "\n", 5, 3),
            (Eof, "", 5, 1),
        ]
    );
}

#[test]
fn spliced_string_literal() {
    let p = pp("char *s = \"ab\\\ncd\";\nint x;\n");
    // The `;` is on the second physical line, and stays there.
    assert_eq!(lines(&p), vec!["char *s = \"abcd\"", "   ;", "int x;"]);
}

#[test]
fn deeply_nested_if_expression_is_an_error_not_a_crash() {
    let src = format!("#if {}1{}\n#endif\n", "(".repeat(2000), ")".repeat(2000));
    let e = pp_err(&src);
    assert!(e.message.contains("nested too deeply"), "{}", e.message);
    let src = format!("#if {}1\n#endif\n", "!".repeat(5000));
    assert!(pp_err(&src).message.contains("nested too deeply"));
}

#[test]
fn deeply_nested_macro_calls_are_an_error_not_a_crash() {
    let src = format!(
        "#define f(x) x\n{}1{}\n",
        "f(".repeat(1000),
        ")".repeat(1000)
    );
    let e = pp_err(&src);
    assert_eq!(e.line, 2);
    assert!(e.message.contains("nested more than"), "{}", e.message);
    let src = format!("#define f(x) x\n{}1{}\n", "f(".repeat(50), ")".repeat(50));
    assert_eq!(flat(&pp(&src)), "1");
}

#[test]
fn tass_pragma_inside_macro_arguments_is_refused() {
    let e = pp_err("#define f(x) x\nf(1\n#pragma TASS assert 1\n)\n");
    assert_eq!(e.line, 3);
    assert!(
        e.message.contains("#pragma TASS inside the arguments"),
        "{}",
        e.message
    );
}

#[test]
fn errors_in_included_files_name_that_file() {
    let d = TempDir::new("incerr");
    let h = d.write("bad.h", "int ok;\n\n  /* never closed\n");
    let main = d.write("main.c", "");
    let e = run_with(&main, "#include \"bad.h\"\n", &opts()).expect_err("lex error");
    assert_eq!((e.file.clone(), e.line, e.column), (h.clone(), 3, 3));
    let h2 = d.write("cond.h", "#if 1\nint x;\n");
    let e = run_with(&main, "#include \"cond.h\"\n#endif\n", &opts()).expect_err("unterminated");
    assert_eq!((e.file, e.line, e.column), (h2, 1, 1));
    assert!(e.message.contains("unterminated #if"), "{}", e.message);
}

#[test]
fn variadic_misuse_is_an_error() {
    let e = pp_err("#define f(x) __VA_ARGS__\n");
    assert!(e.message.contains("__VA_ARGS__"), "{}", e.message);
    let p = pp("#define V(...) [__VA_ARGS__]\nV() V(1) V(1, 2)\n");
    assert_eq!(flat(&p), "[] [1] [1, 2]");
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn c_like() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("#define ".to_string()),
            Just("#if ".to_string()),
            Just("#ifdef A\n".to_string()),
            Just("#else\n".to_string()),
            Just("#endif\n".to_string()),
            Just("#undef A\n".to_string()),
            Just("#include <mpi.h>\n".to_string()),
            Just("#pragma TASS input int\n".to_string()),
            Just("#pragma TASS assert ".to_string()),
            Just("A".to_string()),
            Just("B(".to_string()),
            Just("(x)".to_string()),
            Just(" A A B ".to_string()),
            Just("##".to_string()),
            Just("#".to_string()),
            Just(",".to_string()),
            Just(")".to_string()),
            Just("\n".to_string()),
            Just("\\\n".to_string()),
            Just("/*".to_string()),
            Just("*/".to_string()),
            Just("//".to_string()),
            Just("\"s\"".to_string()),
            Just("'".to_string()),
            Just("__VA_ARGS__".to_string()),
            Just("...".to_string()),
            Just("1 + 2 ? 3 : 4".to_string()),
            "[a-zA-Z0-9_ ]{0,6}",
        ];
        prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn arbitrary_text_never_panics(src in "\\PC{0,200}") {
            let _ = run_with(Path::new(MAIN), &src, &opts());
        }

        #[test]
        fn c_like_text_never_panics(src in c_like()) {
            let _ = run_with(Path::new(MAIN), &src, &opts());
        }

        /// Text without directives, macros, comments or splices comes out
        /// unchanged, line for line (up to trailing blanks).
        #[test]
        fn plain_text_passes_through_line_for_line(
            src_lines in prop::collection::vec("[a-z0-9_ ;(){}+*=<>.,-]{0,30}", 0..20)
        ) {
            let src: String = src_lines.iter().map(|l| format!("{l}\n")).collect();
            let p = run_with(Path::new(MAIN), &src, &opts()).expect("plain text preprocesses");
            let want: Vec<&str> = src.lines().map(str::trim_end).collect();
            prop_assert_eq!(lines(&p), want);
            for (k, o) in p.line_origins.iter().enumerate() {
                prop_assert_eq!(o, &origin(MAIN, k as u32 + 1));
            }
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            let src = String::from_utf8_lossy(&bytes);
            let _ = run_with(Path::new(MAIN), &src, &opts());
        }
    }
}
