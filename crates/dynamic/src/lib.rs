//! `tass-dynamic`: run-time values of a tass model (paper Sec. 2, "dynamic").
//!
//! A C variable of a function corresponds to one *dynamic variable* per frame of
//! that function on a call stack; a `malloc` creates a *heap object*. Dynamic
//! values mostly wrap symbolic expressions ([`api::Value::Data`]); pointers are
//! pairs (dynamic variable, path inside it) ([`api::Pointer`]), so `&a[1][2]` is
//! `(a, <1, 2>)` and `&s.f` is `(s, <field f>)`. Arrays of scalars are symbolic
//! array expressions (their extent may be symbolic: `malloc(n*sizeof(double))`
//! makes an array of extent `n`); arrays of pointers or structs are vectors of
//! values with a concrete extent.
//!
//! This crate knows nothing about states or checks: `tass-semantics` evaluates
//! and checks, `tass-state` stores values in states.
//!
//! ```
//! use tass_dynamic::api::*;
//! use tass_model::api::VarId;
//! use tass_symbolic::api::{ExprFactory, Type};
//!
//! let f = ExprFactory::new();
//! let n = f.symbol("N", Type::Int);
//! // double a[N], never written: every element is "undefined".
//! let a = Value::Data(undefined_data(&f, Type::array(Type::Real, Some(n))));
//! let i = f.int(3);
//! let elem = read_at(&f, &a, &[Step::Index(i)]).unwrap();
//! assert!(matches!(elem, Value::Data(e) if is_undefined_data(&f, e)));
//! // a[3] = 1.5
//! let mut a = a;
//! let v = Value::Data(f.real_ratio(3, 2));
//! write_at(&f, &mut a, &[Step::Index(i)], v.clone()).unwrap();
//! assert_eq!(read_at(&f, &a, &[Step::Index(i)]).unwrap(), v);
//! // a pointer to a[3] of the local `a` (variable 7) in frame 0 of process 0
//! let p = Pointer::to(Root::Local { proc: 0, frame: 0, var: VarId(7) }, vec![Step::Index(i)]);
//! assert_eq!(p.root(), Some(Root::Local { proc: 0, frame: 0, var: VarId(7) }));
//! ```

pub mod api;
mod heap;
mod pointer;
mod value;
