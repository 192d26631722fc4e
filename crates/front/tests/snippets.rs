//! Table-driven test: each snippet parses and translates, and its rendered
//! model (what `tass show` prints) matches the committed snapshot in
//! `tests/snapshots/`.

use std::path::PathBuf;
use tass_front::api::*;

const SNIPPETS: &[(&str, &str)] = &[
    ("empty_main", "int main(void) { return 0; }"),
    ("void_main", "void main() { }"),
    (
        "integer_types",
        "short s; unsigned short us; int i; unsigned u; long l; unsigned long ul; long long ll; unsigned long long ull;
         int main() { ll = s + us + i + u + l + ul; ull = 10ULL; return 0; }",
    ),
    (
        "real_types",
        "float f; double d; long double ld;
         int main() { f = 1.5f; d = f * 2; ld = d / 3.0; return 0; }",
    ),
    (
        "char_and_bool",
        "#include <stdbool.h>
         char c = 'x'; _Bool b; bool ok = true;
         int main() { b = c == 'y'; ok = !b; c = c + 1; return 0; }",
    ),
    (
        "enums",
        "enum color { RED, GREEN = 5, BLUE };
         enum color paint = BLUE;
         int main() { int k = GREEN + RED; return k; }",
    ),
    (
        "typedefs",
        "typedef double real; typedef real vec[3];
         vec v; real norm;
         int main() { norm = v[0] * v[0] + v[1] * v[1]; return 0; }",
    ),
    (
        "nested_structs_with_arrays",
        "struct point { double x, y; };
         struct body { struct point pos; double mass; int ids[4]; };
         struct body bodies[2];
         int main() { bodies[1].pos.x = bodies[0].mass; bodies[0].ids[3] = 7; return 0; }",
    ),
    (
        "multidimensional_arrays",
        "double grid[4][5];
         int main() { int i, j; for (i = 0; i < 4; i++) for (j = 0; j < 5; j++) grid[i][j] = i * j; return 0; }",
    ),
    (
        "variable_length_array",
        "#pragma TASS input {nx > 0 && nx < 10} int
         #define nx 4
         int main() { double u[nx + 2]; u[0] = 0.0; u[nx + 1] = 1.0; return 0; }",
    ),
    (
        "pointers_and_arithmetic",
        "int a[10];
         int main() { int *p = a; int *q = p + 3; *q = 4; q++; p[2] = *(q - 1); return (int)(q - p); }",
    ),
    (
        "malloc_and_free",
        "#include <stdlib.h>
         int main() { int n = 5; double *v = (double *) malloc(n * sizeof(double)); v[0] = 1.0; free(v); return 0; }",
    ),
    (
        "calloc_and_realloc",
        "#include <stdlib.h>
         int main() { int *p = calloc(4, sizeof(int)); p = realloc(p, 8 * sizeof(int)); char *s = malloc(16); free(s); free(p); return 0; }",
    ),
    (
        "sizeof_forms",
        "struct s { int a; double b; };
         int main() { struct s v; unsigned long k = sizeof(struct s) + sizeof v + sizeof(int[3]); return (int)k; }",
    ),
    (
        "casts",
        "int main() { double d = 3.7; int i = (int) d; float f = (float) i; char c = (char) 65; long l = (long) c; return (int)(f + l); }",
    ),
    (
        "string_literals_and_printf",
        "#include <stdio.h>
         char greeting[] = \"hi\\n\";
         int main() { printf(\"%d %s\\n\", 42, greeting); puts(\"done\"); putchar('x'); fprintf(stderr, \"err\"); return 0; }",
    ),
    (
        "const_qualifiers",
        "const int limit = 8; const double scale = 0.5;
         int main() { const int local = limit * 2; return local; }",
    ),
    (
        "static_locals",
        "int counter(void) { static int calls = 0; calls++; return calls; }
         int main() { counter(); return counter(); }",
    ),
    (
        "global_initializers",
        "int primes[5] = {2, 3, 5, 7, 11}; double pi = 3.14159; struct pair { int a, b; } pr = {1, 2}; int zeros[3];
         int main() { return primes[4] + pr.b; }",
    ),
    (
        "prototypes_and_recursion",
        "int fact(int n);
         int main() { return fact(5); }
         int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }",
    ),
    (
        "if_else_chains",
        "int sign(int x) { if (x > 0) return 1; else if (x < 0) return -1; else return 0; }
         int main() { return sign(-3); }",
    ),
    (
        "while_loop",
        "int main() { int i = 0, s = 0; while (i < 10) { s += i; i++; } return s; }",
    ),
    (
        "do_while_loop",
        "int main() { int i = 0; do { i += 2; } while (i < 7); return i; }",
    ),
    (
        "for_with_declaration",
        "int main() { int s = 0; for (int i = 0, j = 10; i < j; i++, j--) s += j - i; return s; }",
    ),
    (
        "break_and_continue",
        "int main() { int s = 0; for (int i = 0; i < 100; i++) { if (i % 2) continue; if (i > 10) break; s += i; } return s; }",
    ),
    (
        "switch_with_fallthrough",
        "int classify(int k) { int r = 0; switch (k) { case 0: r = 10; break; case 1: case 2: r = 20; default: r += 1; } return r; }
         int main() { return classify(2); }",
    ),
    (
        "block_scopes_and_shadowing",
        "int x = 1;
         int main() { int x = 2; { int x = 3; x++; } return x; }",
    ),
    (
        "array_initializer_designators",
        "int main() { int a[6] = {1, 2, [4] = 9}; int b[] = {7, 8, 9}; return a[4] + b[2]; }",
    ),
    (
        "struct_initializer_designators",
        "struct cfg { int n; double tol; int dims[2]; };
         int main() { struct cfg c = { .tol = 0.01, .n = 3, .dims = {4, 5} }; return c.n + c.dims[1]; }",
    ),
    (
        "increments_in_expressions",
        "int main() { int a[4]; int i = 0; a[i++] = 5; a[++i] = 7; i--; return a[0] + i; }",
    ),
    (
        "compound_assignments",
        "int main() { int x = 100; x += 1; x -= 2; x *= 3; x /= 4; x %= 5; x <<= 2; x >>= 1; x &= 7; x |= 8; x ^= 3; return x; }",
    ),
    (
        "conditional_pure",
        "int main() { int a = 3, b = 4; int m = a > b ? a : b; double d = a ? 1.5 : 2; return m + (int)d; }",
    ),
    (
        "conditional_with_effects",
        "int f(int v) { return v * 2; }
         int main() { int a = 1; int r = a > 0 ? f(a) : f(-a); a > 0 ? a++ : a--; return r + a; }",
    ),
    (
        "comma_operator",
        "int main() { int a, b; a = (b = 2, b + 1); return a; }",
    ),
    (
        "short_circuit_pure",
        "int main() { int a = 0, x = 10; if (a != 0 && x / a > 1) return 1; if (a == 0 || x / a < 0) return 2; return 0; }",
    ),
    (
        "short_circuit_with_effects",
        "int calls = 0;
         int touch(void) { calls++; return calls; }
         int main() { int a = 0; if (a > 0 && touch() > 1) a = 5; int b = a == 0 || touch(); return b; }",
    ),
    (
        "bitwise_operators",
        "int main() { unsigned x = 0xF0u; int y = (x & 0x3C) | (x ^ 5) | (~x & 1); y = (y << 2) >> 1; return y; }",
    ),
    (
        "main_with_argc_argv",
        "int main(int argc, char **argv) { return argc > 1 ? 1 : 0; }",
    ),
    (
        "input_output_globals",
        "#pragma TASS input {N > 0 && N <= 100}
         int N;
         #pragma TASS input
         double data[N];
         #pragma TASS output
         double mean;
         int main() { double s = 0; for (int i = 0; i < N; i++) s += data[i]; mean = s / N; return 0; }",
    ),
    (
        "input_macro",
        "#pragma TASS input {0 < LEN && LEN <= 8} int
         #define LEN 5
         int buf[LEN];
         int main() { for (int i = 0; i < LEN; i++) buf[i] = i; return 0; }",
    ),
    (
        "assume_and_assert_pragmas",
        "#pragma TASS input
         int x;
         int main() {
         #pragma TASS assume x > 0 && x < 50
           int y = x * 2;
         #pragma TASS assert y > x
           return y;
         }",
    ),
    (
        "quantifiers",
        "#pragma TASS input {n >= 1 && n <= 5}
         int n;
         #pragma TASS input
         int a[n];
         int main() {
         #pragma TASS assume forall {int i | 0 <= i && i < n - 1} a[i] <= a[i+1]
         #pragma TASS assert exists {int j | 0 <= j && j < n} a[j] >= a[0]
           return 0;
         }",
    ),
    (
        "collective_assert_with_proc",
        "#include <mpi.h>
         int rank, nprocs, token;
         int main() {
           MPI_Init(NULL, NULL);
           MPI_Comm_rank(MPI_COMM_WORLD, &rank);
           MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
           token = rank * 2;
         #pragma TASS collective assert ring PROC[(PID + 1) % NPROCS].token == 2 * ((rank + 1) % nprocs)
           MPI_Finalize();
           return 0;
         }",
    ),
    (
        "loop_invariants",
        "#pragma TASS input {n >= 0 && n < 6} int
         #define n 3
         #pragma TASS output
         int total;
         int main() {
           int i = 0, s = 0;
         #pragma TASS collective invariant sums s == i * (i - 1) / 2 && i <= n
           while (i < n) { s += i; i++; }
         #pragma TASS joint invariant agree total == spec.total
           for (int k = 0; k < 1; k++) total = s;
           return 0;
         }",
    ),
    (
        "system_and_abstract_functions",
        "int ready;
         #pragma TASS abstract
         double flux(double u, double v);
         #pragma TASS system guard ready > 0
         void wait_ready(void);
         int main() { double f = flux(1.0, 2.0) + flux(f, 0.5); ready = 1; wait_ready(); return f > 0; }",
    ),
    (
        "math_functions",
        "#include <math.h>
         int main() { double x = 2.0; double y = sqrt(x) + fabs(-x) + pow(x, 3) + exp(log(x)) + sin(x) * cos(x);
                      y = floor(y) + ceil(y) + fmin(x, y) + fmax(x, M_PI); return (int) y; }",
    ),
    (
        "c_assert",
        "#include <assert.h>
         int main() { int *p = 0; int v = 3; assert(v == 3); assert(p == 0); assert(v); return 0; }",
    ),
    (
        "rand_and_exit",
        "#include <stdlib.h>
         int main() { int r = rand() % 10; if (r > 5) exit(1); if (r < 0) abort(); return abs(r - 3); }",
    ),
    (
        "mpi_point_to_point",
        "#include <mpi.h>
         int main(int argc, char *argv[]) {
           int rank, size, x = 0, count; MPI_Status st;
           MPI_Init(&argc, &argv);
           MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
           if (rank == 0) MPI_Send(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
           else if (rank == 1) { MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st); MPI_Get_count(&st, MPI_INT, &count); x = st.MPI_SOURCE; }
           MPI_Sendrecv_replace(&x, 1, MPI_INT, (rank + 1) % size, 0, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
           MPI_Finalize(); return 0; }",
    ),
    (
        "mpi_collectives",
        "#include <mpi.h>
         double local[4], all[16], total;
         int main() {
           int rank;
           MPI_Init(0, 0); MPI_Comm_rank(MPI_COMM_WORLD, &rank);
           MPI_Bcast(local, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
           MPI_Reduce(&local[0], &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
           MPI_Allreduce(&local[1], &total, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
           MPI_Finalize(); return 0; }",
    ),
    (
        "mpi_nonblocking",
        "#include <mpi.h>
         int main() {
           int rank, size, left, right, inbuf[2], outbuf = 1; MPI_Request reqs[3]; MPI_Status stats[3];
           MPI_Init(0, 0); MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
           left = (rank + size - 1) % size; right = (rank + 1) % size;
           MPI_Irecv(&inbuf[0], 1, MPI_INT, left, 0, MPI_COMM_WORLD, &reqs[0]);
           MPI_Irecv(&inbuf[1], 1, MPI_INT, right, 0, MPI_COMM_WORLD, &reqs[1]);
           MPI_Isend(&outbuf, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &reqs[2]);
           MPI_Waitall(3, reqs, stats);
           MPI_Barrier(MPI_COMM_WORLD); double t = MPI_Wtime();
           MPI_Finalize(); return 0; }",
    ),
    (
        "string_functions",
        "#include <string.h>
         char src[8] = \"abc\", dst[8];
         int main() { memcpy(dst, src, 4); memset(src, 0, sizeof src); return (int) strlen(dst); }",
    ),
    (
        "limits_and_float_constants",
        "#include <limits.h>
         #include <float.h>
         int main() { int m = INT_MAX; long n = LONG_MIN; double e = DBL_EPSILON; return m > 0 && n < 0 && e > 0; }",
    ),
    (
        "struct_pointers_arrow",
        "#include <stdlib.h>
         struct node { int value; struct node *next; };
         int main() { struct node *h = malloc(sizeof(struct node)); h->value = 3; h->next = NULL; int v = h->value; free(h); return v; }",
    ),
    (
        "call_in_loop_condition",
        "int left = 3;
         int step(void) { return left--; }
         int main() { int n = 0; while (step() > 0) n++; return n; }",
    ),
    (
        "remote_frame_and_spec",
        "#pragma TASS output
         double result;
         void work(void) { double acc = 1.0;
         #pragma TASS joint assert same PROC[0]@work.acc == spec.result && PROC[0].result >= 0
           result = acc; }
         int main() { work(); return 0; }",
    ),
    (
        "user_header_and_function_macro",
        "#include \"util.h\"
         int main() { int k = SQUARE(3 + 1); return twice(k); }",
    ),
];

/// Every reachable location except the exits has a way out, and exits have none.
fn check_structure(name: &str, model: &tass_model::api::Model) {
    use tass_model::api::LocationKind;
    for f in &model.functions {
        let Some(body) = &f.body else { continue };
        for l in body.graph.node_indices() {
            let out = body.outgoing(l).count();
            let exit = body.location(l).kind == LocationKind::Exit;
            assert!(
                exit == (out == 0),
                "{name}: {} L{} (exit: {exit}, out: {out})",
                f.name,
                l.index()
            );
        }
    }
}

fn render(name: &str, src: &str) -> String {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(format!("{name}.c"));
    let model = load_sources(&[(file, src.to_string())], &FrontOptions::default())
        .unwrap_or_else(|d| panic!("snippet `{name}` failed:\n{d}"));
    check_structure(name, &model);
    // snapshots must not depend on where the repository is
    render_model(&model).replace(&format!("{}/", env!("CARGO_MANIFEST_DIR")), "")
}

#[test]
fn every_snippet_translates() {
    let mut failures = Vec::new();
    for (name, src) in SNIPPETS {
        let file = PathBuf::from(format!("{name}.c"));
        if let Err(d) = load_sources(&[(file, src.to_string())], &FrontOptions::default()) {
            if *name != "user_header_and_function_macro" {
                failures.push(format!("{name}: {d}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn snippets_translate_and_match_snapshots() {
    assert!(
        SNIPPETS.len() >= 40,
        "the table must cover at least 40 snippets"
    );
    let mut names = std::collections::HashSet::new();
    for (name, src) in SNIPPETS {
        assert!(names.insert(*name), "duplicate snippet name {name}");
        let text = render(name, src);
        insta::assert_snapshot!(*name, text);
    }
}
