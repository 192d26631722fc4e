//! Arrays, tuples, uninterpreted functions and bitwise operators.

use std::sync::Arc;

use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::factory::ExprFactory;
use crate::node::Op;
use crate::types::{Expr, Kids, Type};

/// Concrete writes beyond this index stay symbolic array writes.
const MAX_CONCRETE_INDEX: usize = 1 << 16;

/// Names of the reserved uninterpreted functions that represent bitwise
/// operators on symbolic operands.
pub const BITWISE_FUNCTIONS: [&str; 5] = [
    "__tass_bitand",
    "__tass_bitor",
    "__tass_bitxor",
    "__tass_shl",
    "__tass_shr",
];

/// A bitwise operator on integers (two's complement, unbounded width).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BitOp {
    /// `a & b`
    And,
    /// `a | b`
    Or,
    /// `a ^ b`
    Xor,
    /// `a << b`
    Shl,
    /// `a >> b` (arithmetic: rounds toward minus infinity)
    Shr,
}

impl BitOp {
    /// The reserved uninterpreted function name representing this operator on
    /// symbolic operands.
    pub fn function_name(self) -> &'static str {
        match self {
            BitOp::And => BITWISE_FUNCTIONS[0],
            BitOp::Or => BITWISE_FUNCTIONS[1],
            BitOp::Xor => BITWISE_FUNCTIONS[2],
            BitOp::Shl => BITWISE_FUNCTIONS[3],
            BitOp::Shr => BITWISE_FUNCTIONS[4],
        }
    }

    /// The operator a reserved function name stands for.
    pub fn from_function_name(name: &str) -> Option<BitOp> {
        [BitOp::And, BitOp::Or, BitOp::Xor, BitOp::Shl, BitOp::Shr]
            .into_iter()
            .find(|op| op.function_name() == name)
    }

    /// Applies the operator to concrete integers (`None` for a shift by a negative
    /// or huge amount).
    pub fn apply(self, a: &BigInt, b: &BigInt) -> Option<BigInt> {
        Some(match self {
            BitOp::And => a & b,
            BitOp::Or => a | b,
            BitOp::Xor => a ^ b,
            BitOp::Shl => {
                let k = b.to_u32().filter(|k| *k <= 1 << 16)?;
                a << k
            }
            BitOp::Shr => {
                let k = b.to_u64()?;
                if k > 1 << 20 {
                    if a.is_negative() {
                        -BigInt::one()
                    } else {
                        BigInt::zero()
                    }
                } else {
                    a >> k
                }
            }
        })
    }
}

impl ExprFactory {
    // ----- arrays ----------------------------------------------------------------

    fn array_type(&self, op: &str, a: Expr) -> Type {
        let t = self.type_of(a);
        assert!(
            matches!(t, Type::Array(..)),
            "{op}: operand of type {t:?}, expected an array"
        );
        t
    }

    fn index_operand(&self, i: Expr) -> Expr {
        match self.type_of(i) {
            Type::Int => i,
            Type::Char | Type::Bool => self.cast(i, &Type::Int),
            t => panic!("array index of type {t:?}, expected int"),
        }
    }

    /// `a[i]`. Reads of concrete arrays at concrete indices, of writes at the same
    /// index, and of array lambdas are evaluated.
    pub fn array_read(&self, a: Expr, i: Expr) -> Expr {
        let ty = self.array_type("array_read", a);
        let i = self.index_operand(i);
        let elem = ty.element().cloned().unwrap_or(Type::Int);
        let ci = self.as_concrete_int(i);
        let node = self.node(a);
        match &node.op {
            Op::ConcreteArray(base, els) => {
                if let Some(k) = ci.as_ref() {
                    if let Some(k) = k.to_usize() {
                        if let Some(Some(v)) = els.get(k) {
                            return *v;
                        }
                    }
                    return self.array_read(*base, i);
                }
            }
            Op::ArrayWrite(b, j, v) => {
                if *j == i {
                    return *v;
                }
                if let (Some(x), Some(y)) = (ci.as_ref(), self.as_concrete_int(*j)) {
                    if *x != y {
                        return self.array_read(*b, i);
                    }
                }
            }
            Op::ArrayLambda(var, body) => {
                let mut m = hashbrown::HashMap::new();
                m.insert(*var, i);
                return self.substitute(*body, &m);
            }
            // A cast between array types (e.g. extent `N` retyped as `4` once `N == 4`
            // is known) converts element by element, so reading through it is reading
            // the original and converting the element.
            Op::Cast(inner) if matches!(self.type_of(*inner), Type::Array(..)) => {
                let element = self.array_read(*inner, i);
                return self.cast(element, &elem);
            }
            _ => {}
        }
        self.intern(Op::ArrayRead(a, i), elem)
    }

    /// The array equal to `a` except that index `i` holds `v`. Writes at concrete
    /// indices give a concrete array expression (paper Sec. 4.5).
    pub fn array_write(&self, a: Expr, i: Expr, v: Expr) -> Expr {
        let ty = self.array_type("array_write", a);
        let i = self.index_operand(i);
        let v = self.coerce_element(&ty, v);
        let node = self.node(a);
        if let Some(k) = self.as_concrete_int(i).and_then(|k| k.to_usize()) {
            if k < MAX_CONCRETE_INDEX {
                let (base, mut els): (Expr, Vec<Option<Expr>>) = match &node.op {
                    Op::ConcreteArray(b, els) => (*b, els.to_vec()),
                    _ => (a, Vec::new()),
                };
                if els.len() <= k {
                    els.resize(k + 1, None);
                }
                els[k] = Some(v);
                return self.mk_concrete_array(base, els, ty);
            }
        }
        if let Op::ArrayWrite(b, j, _) = &node.op {
            if *j == i {
                return self.array_write(*b, i, v);
            }
        }
        if let Op::ArrayRead(b, j) = self.node(v).op {
            if b == a && j == i {
                return a;
            }
        }
        self.intern(Op::ArrayWrite(a, i, v), ty)
    }

    fn coerce_element(&self, ty: &Type, v: Expr) -> Expr {
        match ty.element() {
            Some(e) if *e != self.type_of(v) => self.cast(v, e),
            _ => v,
        }
    }

    fn mk_concrete_array(&self, base: Expr, mut els: Vec<Option<Expr>>, ty: Type) -> Expr {
        // A slot equal to the base's own element is redundant.
        for (k, slot) in els.iter_mut().enumerate() {
            if let Some(v) = *slot {
                if let Op::ArrayRead(b, j) = self.node(v).op {
                    if b == base && self.as_concrete_int(j).and_then(|x| x.to_usize()) == Some(k) {
                        *slot = None;
                    }
                }
            }
        }
        while matches!(els.last(), Some(None)) {
            els.pop();
        }
        if els.is_empty() {
            return base;
        }
        self.intern(Op::ConcreteArray(base, Arc::from(els)), ty)
    }

    /// The array of type `ty` whose element `i` is `body[var := i]` (`var` an
    /// integer symbolic constant), e.g. for initialisation `a[i] = f(i)`.
    pub fn array_lambda(&self, ty: Type, var: Expr, body: Expr) -> Expr {
        assert!(
            matches!(ty, Type::Array(..)) && self.is_symbol(var),
            "array_lambda: needs an array type and a symbolic constant"
        );
        let body = self.coerce_element(&ty, body);
        self.intern(Op::ArrayLambda(var, body), ty)
    }

    /// The array of type `ty` whose first `elements.len()` elements are given
    /// (remaining elements, if the extent is larger, are the default value of the
    /// element type: zero, `false`, `'\0'`).
    pub fn array_literal(&self, ty: Type, elements: &[Expr]) -> Expr {
        let elem = ty.element().cloned().unwrap_or(Type::Int);
        let var = self.symbol("__tass_i", Type::Int);
        let def = self.default_value(&elem);
        let base = self.array_lambda(ty.clone(), var, def);
        let els = elements
            .iter()
            .map(|&e| Some(self.coerce_element(&ty, e)))
            .collect();
        self.mk_concrete_array(base, els, ty)
    }

    /// The default (zero) value of a type: `0`, `0.0`, `false`, `'\0'`, a tuple or
    /// array of defaults. For function types: a fresh-named uninterpreted symbol.
    pub fn default_value(&self, ty: &Type) -> Expr {
        match ty {
            Type::Bool => self.c_false,
            Type::Int => self.c_int0,
            Type::Real => self.c_real0,
            Type::Char => self.char(0),
            Type::Tuple(ts) => {
                let els: Vec<Expr> = ts.iter().map(|t| self.default_value(t)).collect();
                self.tuple(&els)
            }
            Type::Array(e, _) => {
                let var = self.symbol("__tass_i", Type::Int);
                let d = self.default_value(e);
                self.array_lambda(ty.clone(), var, d)
            }
            Type::Function(..) => self.symbol("__tass_default_function", ty.clone()),
        }
    }

    /// The extent of an array expression (from its type), if known.
    pub fn array_extent(&self, a: Expr) -> Option<Expr> {
        match self.type_of(a) {
            Type::Array(_, ext) => ext,
            _ => None,
        }
    }

    // ----- tuples ----------------------------------------------------------------

    /// The tuple of `elements`. Reassembling all components of one tuple
    /// (`(t.0, t.1, ...)`) gives `t` itself.
    pub fn tuple(&self, elements: &[Expr]) -> Expr {
        let ty = Type::tuple(elements.iter().map(|&e| self.type_of(e)));
        if let Some(&first) = elements.first() {
            if let Op::TupleRead(t, 0) = self.node(first).op {
                let same = elements.iter().enumerate().all(|(k, &e)| {
                    matches!(self.node(e).op, Op::TupleRead(u, j) if u == t && j as usize == k)
                });
                if same && self.type_of(t) == ty {
                    return t;
                }
            }
        }
        self.intern(Op::Tuple(elements.iter().copied().collect::<Kids>()), ty)
    }

    /// Component `k` of tuple `t`.
    ///
    /// # Panics
    /// If `t` is not a tuple or `k` is out of range.
    pub fn tuple_read(&self, t: Expr, k: u32) -> Expr {
        let ty = self.type_of(t);
        let Type::Tuple(ts) = &ty else {
            panic!("tuple_read: operand of type {ty:?}, expected a tuple");
        };
        let et = ts
            .get(k as usize)
            .cloned()
            .unwrap_or_else(|| panic!("tuple_read: index {k} out of range for {ty:?}"));
        if let Op::Tuple(els) = &self.node(t).op {
            return els[k as usize];
        }
        self.intern(Op::TupleRead(t, k), et)
    }

    /// Tuple `t` with component `k` replaced by `v` (a tuple of component reads).
    pub fn tuple_write(&self, t: Expr, k: u32, v: Expr) -> Expr {
        let ty = self.type_of(t);
        let Type::Tuple(ts) = &ty else {
            panic!("tuple_write: operand of type {ty:?}, expected a tuple");
        };
        assert!(
            (k as usize) < ts.len(),
            "tuple_write: index {k} out of range"
        );
        let els: Vec<Expr> = (0..ts.len() as u32)
            .map(|j| {
                if j == k {
                    if self.type_of(v) != ts[j as usize] {
                        self.cast(v, &ts[j as usize])
                    } else {
                        v
                    }
                } else {
                    self.tuple_read(t, j)
                }
            })
            .collect();
        self.tuple(&els)
    }

    // ----- functions -------------------------------------------------------------

    /// `name(args)` for a floating operator of the herbrand/ieee levels on
    /// concrete operands, when IEEE fixes the result (`ieee.rs`). A negative zero
    /// is the tree `f64_neg(0)` (`f32_neg(0)`), taken and given in that form.
    fn fold_float_operator(&self, name: &str, args: &[Expr]) -> Option<Expr> {
        use crate::ieee::{Folded, Operand};
        if !crate::ieee::is_float_operator_name(name) {
            return None;
        }
        let mut operands = Vec::with_capacity(args.len());
        for &a in args {
            operands.push(match self.as_concrete_int(a) {
                Some(i) if self.type_of(a) == Type::Int => {
                    Operand::Exact(crate::types::Value::Int(i))
                }
                _ => match self.as_concrete_rational(a) {
                    Some(q) => Operand::Exact(crate::types::Value::Real(q)),
                    None if self.is_negative_zero(a) => Operand::NegativeZero,
                    None => return None,
                },
            });
        }
        match crate::ieee::fold(name, &operands)? {
            Folded::Exact(crate::types::Value::Real(q)) => Some(self.real(q)),
            Folded::Exact(crate::types::Value::Bool(b)) => Some(self.bool(b)),
            Folded::Exact(_) => None,
            Folded::NegativeZero => {
                let (prefix, op) = name.split_once('_')?;
                // `neg(+0)` is itself the form of -0: left as the tree.
                if op == "neg" && matches!(operands.as_slice(), [Operand::Exact(_)]) {
                    return None;
                }
                let neg = self.symbol(
                    &format!("{prefix}_neg"),
                    Type::function([Type::Real], Type::Real),
                );
                Some(self.apply(neg, &[self.real(num_rational::BigRational::zero())]))
            }
        }
    }

    /// True if `e` is IEEE's negative zero: the tree `f64_neg(0)` or `f32_neg(0)`.
    pub fn is_negative_zero(&self, e: Expr) -> bool {
        let Op::Apply(g, args) = &self.node(e).op else {
            return false;
        };
        let negation = self
            .symbol_name(*g)
            .is_some_and(|n| matches!(&*n, "f64_neg" | "f32_neg"));
        negation
            && args.len() == 1
            && self
                .as_concrete_rational(args[0])
                .is_some_and(|q| q.is_zero())
    }

    /// Applies the uninterpreted function `f` (a symbolic constant of function
    /// type) to `args`. Arguments are converted to the declared parameter types.
    pub fn apply(&self, f: Expr, args: &[Expr]) -> Expr {
        let ty = self.type_of(f);
        let Type::Function(params, result) = &ty else {
            panic!("apply: operand of type {ty:?}, expected a function");
        };
        assert!(
            params.len() == args.len(),
            "apply: {} arguments given, {} expected",
            args.len(),
            params.len()
        );
        if let Some(name) = self.symbol_name(f) {
            if let Some(op) = BitOp::from_function_name(&name) {
                if let (Some(a), Some(b)) =
                    (self.as_concrete_int(args[0]), self.as_concrete_int(args[1]))
                {
                    if let Some(r) = op.apply(&a, &b) {
                        return self.int(r);
                    }
                }
            }
            if let Some(e) = self.fold_float_operator(&name, args) {
                return e;
            }
        }
        let args: Kids = args
            .iter()
            .zip(params.iter())
            .map(|(&a, p)| {
                if self.type_of(a) != *p {
                    self.cast(a, p)
                } else {
                    a
                }
            })
            .collect();
        self.intern(Op::Apply(f, args), (**result).clone())
    }

    // ----- bitwise ---------------------------------------------------------------

    /// The reserved uninterpreted function `int x int -> int` used for `op` on
    /// symbolic operands.
    pub fn bitwise_function(&self, op: BitOp) -> Expr {
        self.symbol(
            op.function_name(),
            Type::function([Type::Int, Type::Int], Type::Int),
        )
    }

    /// `a op b` for a bitwise operator on integers: folded exactly when both are
    /// concrete; `x << k` with a concrete `k >= 0` is `x * 2^k`; `x & 0 == 0`,
    /// `x | 0 == x ^ 0 == x >> 0 == x`; otherwise an application of the reserved
    /// function ([`BitOp::function_name`]).
    pub fn bitwise(&self, op: BitOp, a: Expr, b: Expr) -> Expr {
        let a = self.index_operand(a);
        let b = self.index_operand(b);
        let (ca, cb) = (self.as_concrete_int(a), self.as_concrete_int(b));
        if let (Some(x), Some(y)) = (&ca, &cb) {
            if let Some(r) = op.apply(x, y) {
                return self.int(r);
            }
        }
        let zero = |c: &Option<BigInt>| c.as_ref().is_some_and(|v| v.is_zero());
        match op {
            BitOp::And if zero(&ca) || zero(&cb) => return self.c_int0,
            BitOp::Or | BitOp::Xor if zero(&ca) => return b,
            BitOp::Or | BitOp::Xor if zero(&cb) => return a,
            BitOp::Shr if zero(&cb) => return a,
            BitOp::Shl => {
                if let Some(k) = cb
                    .as_ref()
                    .and_then(|k| k.to_u32())
                    .filter(|k| *k <= 1 << 16)
                {
                    let m = self.int(BigInt::one() << k);
                    return self.mul(a, m);
                }
            }
            _ => {}
        }
        if op == BitOp::And && a == b {
            return a;
        }
        let (a, b) = match op {
            BitOp::And | BitOp::Or | BitOp::Xor if b < a => (b, a),
            _ => (a, b),
        };
        let f = self.bitwise_function(op);
        self.intern(Op::Apply(f, smallvec::smallvec![a, b]), Type::Int)
    }

    /// `~a` on integers: exactly `-a - 1`.
    pub fn bit_not(&self, a: Expr) -> Expr {
        let a = self.index_operand(a);
        let n = self.neg(a);
        self.sub(n, self.c_int1)
    }
}
