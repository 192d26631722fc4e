//! Random sequential C programs: bounded inputs, branches on them, a local array read
//! and written through indices and a moving pointer, divisions, small loops, and
//! assertions. Every value's magnitude is tracked while generating, so no generated
//! expression can overflow `int` (signed overflow is undefined behaviour that tass does
//! not check, and it would make the sanitizer disagree for the wrong reason).

use super::features::{Feature, Features};
use super::rng::Rng;
use super::{Input, Kind, Program};
use std::fmt::Write as _;

/// No tracked value may exceed this magnitude.
const LIMIT: i64 = 1 << 20;

struct SeqGen<'a> {
    rng: &'a mut Rng,
    features: &'a Features,
    used: Features,
    inputs: Vec<Input>,
    /// Local `int` variables and a bound on their magnitude.
    vars: Vec<(String, i64)>,
    unsigned_vars: Vec<String>,
    len: i64,
    elem_bound: i64,
    /// `p == a + ptr_off`; `p` moves only at the top level, so this is exact.
    ptr_off: i64,
    body: String,
    depth: usize,
}

pub fn generate(rng: &mut Rng, features: &Features, name: &str) -> Program {
    let input_count = 1 + rng.below(2);
    let inputs: Vec<Input> = ["x", "y"][..input_count]
        .iter()
        .map(|n| {
            let lo = rng.range(-2, 0);
            Input {
                name: (*n).into(),
                lo,
                hi: lo + rng.range(1, 3),
            }
        })
        .collect();
    let len = rng.range(3, 5);
    let mut g = SeqGen {
        rng,
        features,
        used: Features::new(),
        inputs,
        vars: Vec::new(),
        unsigned_vars: Vec::new(),
        len,
        elem_bound: 6,
        ptr_off: 0,
        body: String::new(),
        depth: 1,
    };
    g.prologue();
    let statements = 3 + g.rng.below(5);
    for _ in 0..statements {
        g.statement(true);
    }
    for _ in 0..1 + g.rng.below(2) {
        let c = g.cond();
        g.line(&format!("assert({c});"));
    }
    let mut src = String::new();
    let _ = writeln!(src, "/* difftest {name}: a generated sequential program */");
    src.push_str("#include <assert.h>\n");
    for i in &g.inputs {
        let _ = writeln!(
            src,
            "#pragma TASS input {{{lo} <= {n} && {n} <= {hi}}} int\n#define {n} DT_INPUT({n})",
            n = i.name,
            lo = i.lo,
            hi = i.hi
        );
    }
    src.push_str("\nint main(void) {\n");
    src.push_str(&g.body);
    src.push_str("  return 0;\n}\n");
    Program {
        name: name.into(),
        kind: Kind::Seq,
        inputs: g.inputs,
        source: src,
        features_used: g.used,
    }
}

impl SeqGen<'_> {
    fn line(&mut self, text: &str) {
        let _ = writeln!(self.body, "{}{text}", "  ".repeat(self.depth));
    }

    fn feature(&mut self, f: Feature, percent: u64) -> bool {
        if self.features.contains(&f) && self.rng.chance(percent) {
            self.used.insert(f);
            true
        } else {
            false
        }
    }

    fn prologue(&mut self) {
        let init: Vec<String> = (0..self.len)
            .map(|_| self.rng.range(-3, 6).to_string())
            .collect();
        self.line(&format!("int a[{}] = {{{}}};", self.len, init.join(", ")));
        self.ptr_off = self.rng.range(0, self.len - 1);
        self.line(&format!("int *p = a + {};", self.ptr_off));
        if self.features.contains(&Feature::CharBytes) {
            self.line("char *c = (char *)a;");
        }
        for k in 0..1 + self.rng.below(2) {
            let (e, b) = self.expr(1);
            self.line(&format!("int v{k} = {e};"));
            self.vars.push((format!("v{k}"), b));
        }
    }

    fn input_bound(i: &Input) -> i64 {
        i.lo.abs().max(i.hi.abs())
    }

    /// An index that usually stays inside the array but may leave it.
    fn dynamic_index(&mut self) -> (String, i64) {
        let i = self.rng.below(self.inputs.len());
        let inp = &self.inputs[i];
        let shift = self.rng.range(0, 2);
        let b = Self::input_bound(inp) + shift;
        if shift == 0 {
            (inp.name.clone(), b)
        } else {
            (format!("{} + {shift}", inp.name), b)
        }
    }

    fn atom(&mut self) -> (String, i64) {
        loop {
            let choice = self.rng.below(9);
            let (text, bound) = match choice {
                0 => {
                    let c = self.rng.range(-4, 6);
                    (c.to_string(), c.abs())
                }
                1 | 2 => {
                    let i = &self.inputs[self.rng.below(self.inputs.len())];
                    (i.name.clone(), Self::input_bound(i))
                }
                3 | 4 if !self.vars.is_empty() => {
                    let (n, b) = self.vars[self.rng.below(self.vars.len())].clone();
                    (n, b)
                }
                5 => (
                    format!("a[{}]", self.rng.range(0, self.len - 1)),
                    self.elem_bound,
                ),
                6 => {
                    let k = self.rng.range(-self.ptr_off, self.len - 1 - self.ptr_off);
                    let text = if self.rng.chance(50) {
                        format!("p[{k}]")
                    } else {
                        format!("*(p + {k})")
                    };
                    (text, self.elem_bound)
                }
                7 if self.rng.chance(25) => {
                    let (ix, _) = self.dynamic_index();
                    (format!("a[{ix}]"), self.elem_bound)
                }
                8 if !self.unsigned_vars.is_empty() && self.feature(Feature::MixedSign, 60) => {
                    let u = self.unsigned_vars[self.rng.below(self.unsigned_vars.len())].clone();
                    let m = self.rng.range(2, 7);
                    (format!("(int)({u} % {m}u)"), m - 1)
                }
                _ => continue,
            };
            if bound <= LIMIT {
                return (text, bound);
            }
        }
    }

    /// Mostly a nonzero constant, sometimes anything (so division by zero happens).
    fn divisor(&mut self) -> String {
        if self.rng.chance(70) {
            let d = *self.rng.pick(&[-3, -2, 2, 3, 4]);
            return d.to_string();
        }
        self.atom().0
    }

    fn expr(&mut self, depth: usize) -> (String, i64) {
        if depth == 0 || self.rng.chance(35) {
            return self.atom();
        }
        let (l, lb) = self.expr(depth - 1);
        let result = match self.rng.below(6) {
            0 | 1 => {
                let (r, rb) = self.expr(depth - 1);
                (format!("{l} + {r}"), lb + rb)
            }
            2 => {
                let (r, rb) = self.expr(depth - 1);
                (format!("{l} - ({r})"), lb + rb)
            }
            3 => {
                let k = self.rng.range(-3, 3);
                (format!("({l}) * {k}"), lb * k.abs())
            }
            4 => {
                let d = self.divisor();
                (format!("({l}) / ({d})"), lb)
            }
            _ => {
                let d = self.divisor();
                (format!("({l}) % ({d})"), lb)
            }
        };
        if result.1 > LIMIT {
            self.atom()
        } else {
            result
        }
    }

    fn comparison(&mut self) -> String {
        let op = *self.rng.pick(&["<", "<=", "==", "!=", ">", ">="]);
        if !self.unsigned_vars.is_empty() && self.feature(Feature::MixedSign, 30) {
            let u = self.unsigned_vars[self.rng.below(self.unsigned_vars.len())].clone();
            let (e, _) = self.expr(1);
            return if self.rng.chance(50) {
                format!("{e} {op} {u}")
            } else {
                format!("{u} + {e} {op} {}u", self.rng.range(0, 8))
            };
        }
        let (l, _) = self.expr(1);
        let (r, _) = if self.rng.chance(50) {
            let c = self.rng.range(-4, 8);
            (c.to_string(), 0)
        } else {
            self.expr(1)
        };
        format!("{l} {op} {r}")
    }

    fn cond(&mut self) -> String {
        let c = self.comparison();
        match self.rng.below(6) {
            0 => format!("({c}) && ({})", self.comparison()),
            1 => format!("({c}) || ({})", self.comparison()),
            2 => format!("!({c})"),
            _ => c,
        }
    }

    fn assign_var(&mut self) {
        let (e, b) = self.expr(2);
        let declare = self.vars.len() < 4 && self.rng.chance(30);
        // Only at the top level: a variable declared in a branch goes out of scope.
        if declare && self.depth == 1 {
            let name = format!("v{}", self.vars.len());
            self.line(&format!("int {name} = {e};"));
            self.vars.push((name, b));
            return;
        }
        let k = self.rng.below(self.vars.len());
        let name = self.vars[k].0.clone();
        self.line(&format!("{name} = {e};"));
        self.vars[k].1 = self.vars[k].1.max(b);
    }

    fn write_array(&mut self) {
        let (e, b) = self.expr(1);
        let target = match self.rng.below(4) {
            0 => format!("a[{}]", self.rng.range(0, self.len - 1)),
            1 => format!("a[{}]", self.dynamic_index().0),
            2 => format!(
                "p[{}]",
                self.rng.range(-self.ptr_off, self.len - 1 - self.ptr_off)
            ),
            _ => format!(
                "*(p + {})",
                self.rng.range(-self.ptr_off, self.len - 1 - self.ptr_off)
            ),
        };
        self.line(&format!("{target} = {e};"));
        self.elem_bound = self.elem_bound.max(b);
    }

    fn branch(&mut self) {
        let c = self.cond();
        self.line(&format!("if ({c}) {{"));
        self.depth += 1;
        for _ in 0..1 + self.rng.below(2) {
            self.statement(false);
        }
        self.depth -= 1;
        if self.rng.chance(50) {
            self.line("} else {");
            self.depth += 1;
            self.statement(false);
            self.depth -= 1;
        }
        self.line("}");
    }

    fn small_loop(&mut self) {
        let inp = self.inputs[self.rng.below(self.inputs.len())].clone();
        let k = self.rng.below(self.vars.len());
        let var = self.vars[k].0.clone();
        self.line(&format!("for (int k = 0; k < {}; k++) {{", inp.name));
        self.depth += 1;
        if self.rng.chance(50) {
            self.line(&format!("{var} = {var} + a[k];"));
        } else {
            self.line(&format!("{var} = {var} + k;"));
            self.line(&format!("p[0] = p[0] - {var} % 3;"));
        }
        self.depth -= 1;
        self.line("}");
        let grow = (inp.hi.max(0) + 1) * self.elem_bound.max(inp.hi.abs() + 1);
        self.vars[k].1 += grow;
        self.elem_bound += self.vars[k].1;
    }

    fn move_pointer(&mut self) {
        let to = self.rng.range(0, self.len - 1);
        if self.rng.chance(50) {
            self.line(&format!("p = &a[{to}];"));
        } else {
            self.line(&format!("p = p + ({});", to - self.ptr_off));
        }
        self.ptr_off = to;
    }

    fn unsigned_stmt(&mut self) {
        let (e, _) = self.expr(1);
        let name = format!("u{}", self.unsigned_vars.len());
        self.line(&format!("unsigned {name} = (unsigned)({e});"));
        self.unsigned_vars.push(name);
    }

    /// Byte arithmetic through `char *c = (char *)a`, cast back to `int *` on an
    /// element boundary (C allows it; reading an `int`'s bytes as `char` is type
    /// punning, which tass refuses by name, so it is not generated). The byte offset
    /// is sometimes an input-dependent multiple of 4 and now and then one element past
    /// the end, so the out-of-bounds check is exercised in bytes.
    fn char_stmt(&mut self) {
        let last = self.len - 1;
        let offset = match self.rng.below(5) {
            0 => {
                let (index, _) = self.dynamic_index();
                format!("4 * ({index})")
            }
            1 if self.rng.chance(30) => format!("{}", 4 * self.len),
            _ => format!("{}", 4 * self.rng.range(0, last)),
        };
        if self.rng.chance(50) {
            let (e, b) = self.expr(1);
            self.line(&format!("*(int *)(c + {offset}) = {e};"));
            self.elem_bound = self.elem_bound.max(b);
        } else {
            let m = self.rng.below(self.vars.len());
            let var = self.vars[m].0.clone();
            self.line(&format!("{var} = {var} + *(int *)(c + {offset});"));
            self.vars[m].1 += self.elem_bound;
        }
    }

    fn statement(&mut self, top_level: bool) {
        loop {
            match self.rng.below(11) {
                0..=2 => self.assign_var(),
                3 | 4 => self.write_array(),
                5 if self.depth < 3 => self.branch(),
                6 if top_level => self.small_loop(),
                7 if top_level => self.move_pointer(),
                8 if self.depth > 1 => {
                    let c = self.cond();
                    self.line(&format!("assert({c});"));
                }
                9 if top_level
                    && self.unsigned_vars.len() < 2
                    && self.feature(Feature::MixedSign, 70) =>
                {
                    self.unsigned_stmt()
                }
                10 if self.feature(Feature::CharBytes, 70) => self.char_stmt(),
                _ => continue,
            }
            return;
        }
    }
}
