// The generated benchmark program (shared by benches/front.rs and examples/gen_bench.rs).

/// A program of `functions` similar functions (about 25 lines each) plus a
/// main calling them all.
fn generate(functions: usize) -> String {
    let mut s = String::from(
        "#include <stdlib.h>\n#include <math.h>\n#pragma TASS input {N > 0 && N < 100} int\n#define N 16\n#define SQR(x) ((x) * (x))\n#pragma TASS output\ndouble result;\nstruct cell { double v; int k[4]; };\ndouble grid[N][N];\n",
    );
    for f in 0..functions {
        s.push_str(&format!(
            "double work{f}(int n, double *a) {{
    double acc = 0.0;
    struct cell c = {{ .v = 1.5, .k = {{1, 2}} }};
    int i, j;
    for (i = 0; i < n; i++) {{
        if (i % 2 == 0 && a[i] > 0.0) {{
            acc += SQR(a[i]) * {f}.5;
        }} else if (i > 3) {{
            acc -= sqrt(fabs(a[i]));
        }} else {{
            acc = acc > 1.0 ? acc / 2 : acc * 2;
        }}
        for (j = 0; j < N; j++)
            grid[i % N][j] += c.v * j;
    }}
    while (n > 0) {{
        n--;
        c.k[n % 4]++;
    }}
    switch (c.k[0]) {{
    case 0: acc += 1; break;
    case 1: acc += 2;
    default: acc += 3;
    }}
    return acc + c.k[1];
}}
"
        ));
    }
    s.push_str("int main() {\n    double *a = malloc(N * sizeof(double));\n    int i;\n    for (i = 0; i < N; i++) a[i] = i;\n    result = 0;\n");
    for f in 0..functions {
        s.push_str(&format!("    result += work{f}(N, a);\n"));
    }
    s.push_str("    free(a);\n    return 0;\n}\n");
    s
}
