//! `tass-front`: C + TASS pragmas -> a [`tass_model`] model.
//!
//! The pipeline: the built-in preprocessor (macros, conditionals,
//! `#include`, `-I`/`-D`; `#pragma TASS input` before a `#define` makes the
//! macro an input), tree-sitter-c parsing (every ERROR or MISSING node is a
//! syntax error), name resolution and type checking, and translation into a
//! model: functions become guarded transition systems whose expressions are
//! side-effect free (assignments, `++`, calls inside expressions are lowered
//! into separate statements with temporaries). `<mpi.h>`, `<stdio.h>`,
//! `<stdlib.h>`, `<math.h>`, `<string.h>`, `<time.h>`, `<errno.h>`,
//! `<unistd.h>`, `<assert.h>`, `<stdbool.h>`, `<limits.h>`, `<float.h>` are
//! built in. Anything outside the supported C subset (goto, bit-fields, inline
//! assembly, ...) is an
//! error naming the construct and its position, never a panic.
//!
//! ## The C subset
//!
//! Supported: all integer types (the mathematical integers; the C kind is
//! kept for printing), `float`/`double`/`long double` (the reals), `char`,
//! `_Bool`/`bool`, enums, typedefs, structs (nested, array fields,
//! self-referential through pointers), unions (the engine lets a program
//! read the member last written), multi-dimensional and variable-length
//! arrays (`double u[nxl+2]`, input-dependent extents), pointers and pointer
//! arithmetic (in bytes on `char *`/`void *`), `malloc/calloc/realloc/free`,
//! `sizeof` and `offsetof` (LP64 layout with padding), casts, string
//! literals, `const`, static locals, global initializers (run at the start of
//! `main`), functions, recursion and prototypes; `if/else`, `for`, `while`,
//! `do/while`, `break`, `continue`, `switch/case/default` (with fallthrough),
//! `return`, statement labels and `goto` (`translate/labels.rs`), blocks,
//! declarations with initializers (array and struct
//! initializer lists with designators); `++ --`, compound assignments, `?:`,
//! comma, `&&`/`||` with short circuit, bitwise operators. `int main(int argc,
//! char **argv)` and `void main()` are both accepted. Function pointers
//! (`translate/fnptr.rs`): variables, arrays, parameters and typedefs of
//! function-pointer type hold the integer `FunctionId + 1` of a function of
//! the program (0 for `NULL`); a call through one branches over the defined
//! functions of its signature.
//!
//! Rejected with a positioned error: a `goto` to an undefined label or into
//! the scope of a variable-length array, a label defined twice, function pointers in
//! struct fields, pointers to function pointers, pointers to library
//! functions, bit-fields, inline assembly, threads (`_Thread_local`,
//! `_Atomic`, pthreads), `setjmp`, compound literals, `_Generic`, variadic
//! function definitions, casts between integers and pointers, nesting deeper
//! than 1000 syntax levels.
//!
//! Pragmas (`#pragma TASS ...`, see DESIGN.md): `input [{c}] [TYPE]` before a
//! global or an object-like `#define`, `output`, `assume`, `assert`,
//! `collective|joint assert ID e`, `collective|joint invariant ID e`
//! (immediately before a loop), `system [guard e]`, `abstract`, `ltl ID
//! FORMULA` (file scope; `translate/ltl.rs`); expressions
//! may use `forall/exists {T i | c} p`, `PROC[e].x`, `PROC[e]@f.x`, `spec.x`,
//! `PID`, `NPROCS`.
//!
//! ```
//! use std::path::PathBuf;
//! use tass_front::api::*;
//!
//! let src = r#"
//! #pragma TASS input {N > 0} int
//! #define N 10
//! #pragma TASS output
//! int total;
//! int main() {
//!     int s = 0;
//!     for (int i = 0; i < N; i++) s += i;
//!     total = s;
//!     return 0;
//! }
//! "#;
//! let model = load_sources(&[(PathBuf::from("sum.c"), src.to_string())],
//!                          &FrontOptions::default()).unwrap();
//! let text = render_model(&model);
//! assert!(text.contains("input int N (macro) {N > 0}"));
//! assert!(text.contains("output int total"));
//! assert!(text.contains("for-loop-head"));
//!
//! // errors are diagnostics with file, line and column
//! let bad = "int main() { goto end; ned: return 0; }";
//! let err = load_sources(&[(PathBuf::from("bad.c"), bad.to_string())],
//!                        &FrontOptions::default()).unwrap_err();
//! assert_eq!(
//!     err.0[0].headline(),
//!     "bad.c:1:14: error: `goto end`: no label `end:` in this function; define it or fix the name"
//! );
//! ```

pub mod api;
mod ast;
mod civl;
mod diag;
mod disambiguate;
mod driver;
mod headers;
mod pragma;
mod preprocess;
mod sequence;
mod translate;
