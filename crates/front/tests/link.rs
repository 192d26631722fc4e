//! Several files make one program: globals and functions are shared.

use std::path::PathBuf;
use tass_front::api::*;

#[test]
fn two_files_link_into_one_model() {
    let lib = "int counter;\nint bump(int by) { counter += by; return counter; }\n";
    let main = "extern int counter;\nint bump(int by);\nint main() { bump(2); return counter; }\n";
    let model = load_sources(
        &[
            (PathBuf::from("lib.c"), lib.to_string()),
            (PathBuf::from("main.c"), main.to_string()),
        ],
        &FrontOptions::default(),
    )
    .unwrap_or_else(|d| panic!("{d}"));
    let names: Vec<&str> = model.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["bump", "main"]);
    assert_eq!(model.globals.len(), 1);
    let text = render_model(&model);
    assert!(text.contains("call bump(2)"), "{text}");
    assert!(text.contains("counter = counter + by"), "{text}");
}

#[test]
fn errors_name_the_file_they_are_in() {
    let d = load_sources(
        &[
            (
                PathBuf::from("good.c"),
                "int main() { return 0; }\n".to_string(),
            ),
            (
                PathBuf::from("bad.c"),
                "int f() { return nope; }\n".to_string(),
            ),
        ],
        &FrontOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        d.0[0].headline(),
        "bad.c:1:18: error: unknown identifier `nope`"
    );
}

#[test]
fn sizeof_of_a_parenthesised_typedef_name_is_the_type_size() {
    // tree-sitter parses `sizeof(T)` with a typedef T as an expression
    let src = "#include <mpi.h>\ntypedef double real;\nint main() {\n  unsigned long a = sizeof(real), b = sizeof(MPI_Request);\n  return (int)(a + b);\n}\n";
    let model = load_sources(
        &[(PathBuf::from("t.c"), src.to_string())],
        &FrontOptions::default(),
    )
    .unwrap_or_else(|d| panic!("{d}"));
    let text = render_model(&model);
    assert!(text.contains("sizeof(double)"), "{text}");
    assert!(text.contains("sizeof(MPI_Request)"), "{text}");
}
