//! The models of `<string.h>` (`memcpy`, `memmove`, `memset`, `memcmp`,
//! `strlen`, `strcmp`, `strncmp`, `strcpy`, `strncpy`) and of the string
//! conversions `atoi`, `atol` and `strtol`.
//!
//! Buffers are element pointers (`&a[i]`, a decayed array, a heap block) or a
//! pointer to one object (`&s`). A byte count becomes an element count by
//! dividing by the element size; the division must be exact under the path
//! condition (a copy of part of an element is not supported). Every element
//! read or written is checked to lie inside its object (`out-of-bounds`).

use smallvec::SmallVec;
use tass_dynamic::api::{is_undefined_data, size_of, Root, Step, Value};
use tass_model::api::{
    render_expr, Expr as MExpr, ExprKind, IntKind, LibraryFunction, Model, Span, Type as MType,
};
use tass_symbolic::api::{BigInt, Expr, ExprFactory, Type};

use crate::env::Environment;
use crate::eval::{char_of_byte, scalar_type, Evaluator, FalseClaim, Place};
use crate::exec::pointee_type;
use crate::oracle::Decision;
use crate::report::{EngineError, Property};
use crate::window::ElementWindow;

/// Longest string walked character by character (a guard against walks that
/// never meet a terminating NUL in an object of unknown size).
const MAX_WALK: usize = 1 << 16;

/// How far [`StringCall::walk_strings`] goes: to `limit` (the `n` of
/// `strncmp`), else to the first NUL; past [`MAX_WALK`] it refuses with
/// `too_long`.
struct StringWalk {
    limit: Option<usize>,
    too_long: &'static str,
}

/// Counts up to this many elements are copied one by one; longer concrete
/// counts over data arrays use one array expression.
const MAX_UNROLLED: usize = 256;

/// One call of a library function of this module.
pub(crate) struct LibCall<'c> {
    pub model: &'c Model,
    pub lf: LibraryFunction,
    pub args: &'c [MExpr],
    pub span: &'c Span,
}

impl LibCall<'_> {
    fn name(&self) -> &'static str {
        self.lf.c_name()
    }

    fn arg(&self, k: usize) -> Result<&MExpr, EngineError> {
        self.args.get(k).ok_or_else(|| {
            EngineError::invalid(
                format!("{} needs more arguments", self.name()),
                Some(self.span),
            )
        })
    }

    fn text(&self, k: usize) -> String {
        self.args
            .get(k)
            .map(|a| render_expr(self.model, a))
            .unwrap_or_default()
    }

    fn unsupported(&self, what: impl std::fmt::Display) -> EngineError {
        EngineError::unsupported(format!("`{}` {what}", self.name()), self.span)
    }
}

/// Consecutive elements a library function reads or writes.
#[derive(Clone)]
enum Buffer {
    /// Elements `prefix[start]`, `prefix[start + 1]`, ... of `root`; `extent` is
    /// the array's length when known.
    Elements {
        root: Root,
        prefix: SmallVec<[Step; 2]>,
        start: Expr,
        extent: Option<Expr>,
    },
    /// A pointer to one object that is not an array element (`&s`).
    Single(Place),
    /// The characters of a string literal, its terminating NUL included.
    Literal(Vec<u8>),
}

impl Buffer {
    /// The same buffer `by` elements further on.
    fn advanced(&self, f: &ExprFactory, by: Expr) -> Option<Buffer> {
        match self {
            Buffer::Elements {
                root,
                prefix,
                start,
                extent,
            } => Some(Buffer::Elements {
                root: *root,
                prefix: prefix.clone(),
                start: f.add(*start, by),
                extent: *extent,
            }),
            _ => None,
        }
    }

    /// The place of element `j` (`None` for a literal or past a single object).
    fn place(&self, f: &ExprFactory, j: Expr) -> Option<Place> {
        match self {
            Buffer::Elements {
                root,
                prefix,
                start,
                ..
            } => {
                let mut path = prefix.clone();
                path.push(Step::Index(f.add(*start, j)));
                Some((*root, path))
            }
            Buffer::Single(place) if f.as_concrete_int(j) == Some(BigInt::from(0)) => {
                Some(place.clone())
            }
            _ => None,
        }
    }

    /// Element `j` (concrete for literals and single objects).
    fn read(&self, ev: &Evaluator<'_>, env: &dyn Environment, j: Expr) -> Value {
        let f = ev.factory();
        match self {
            Buffer::Literal(bytes) => concrete_index(f, j)
                .and_then(|j| bytes.get(j))
                .map(|&b| Value::Data(char_of_byte(f, b)))
                .unwrap_or(Value::Undefined),
            _ => match self.place(f, j) {
                Some(place) => ev.read_place(env, &place),
                None => Value::Undefined,
            },
        }
    }

    /// The claim that elements `0 .. count` lie inside the object, and the
    /// object's size in elements from the buffer's start (for messages).
    fn room_claim(&self, f: &ExprFactory, count: Expr) -> Option<(Expr, Expr)> {
        match self {
            Buffer::Elements { start, extent, .. } => {
                let window = ElementWindow {
                    start: *start,
                    count,
                    extent: (*extent)?,
                };
                Some((window.inside(f), f.sub(window.extent, *start)))
            }
            Buffer::Single(_) => Some((f.le(count, f.int(1)), f.int(1))),
            Buffer::Literal(bytes) => {
                let n = f.int(bytes.len());
                Some((f.le(count, n), n))
            }
        }
    }

    /// The condition under which elements `0 .. count` of this buffer and
    /// `0 .. other_count` of `other` share an element. Both hold elements of one
    /// type, so buffers inside different arrays (or an array and a single object)
    /// cannot overlap: no type contains itself.
    fn overlap(&self, f: &ExprFactory, count: Expr, other: &Buffer, other_count: Expr) -> Expr {
        match (self, other) {
            (
                Buffer::Elements {
                    root,
                    prefix,
                    start,
                    ..
                },
                Buffer::Elements {
                    root: other_root,
                    prefix: other_prefix,
                    start: other_start,
                    ..
                },
            ) if root == other_root => f.and_all([
                same_steps(f, prefix, other_prefix),
                f.lt(*start, f.add(*other_start, other_count)),
                f.lt(*other_start, f.add(*start, count)),
            ]),
            (Buffer::Single((root, path)), Buffer::Single((other_root, other_path)))
                if root == other_root =>
            {
                f.and_all([
                    same_steps(f, path, other_path),
                    f.lt(f.int(0), count),
                    f.lt(f.int(0), other_count),
                ])
            }
            _ => f.ff(),
        }
    }
}

/// The value of `e` as a count or index, when it is a concrete one.
fn concrete_index(f: &ExprFactory, e: Expr) -> Option<usize> {
    f.as_concrete_int(e).and_then(|k| usize::try_from(k).ok())
}

/// The condition under which two paths inside one root name the same object.
fn same_steps(f: &ExprFactory, a: &[Step], b: &[Step]) -> Expr {
    if a.len() != b.len() {
        return f.ff();
    }
    let mut equal = Vec::with_capacity(a.len());
    for (x, y) in a.iter().zip(b) {
        match (x, y) {
            (Step::Index(i), Step::Index(j)) => equal.push(f.eq(*i, *j)),
            (Step::Field(m), Step::Field(n)) if m == n => {}
            _ => return f.ff(),
        }
    }
    f.and_all(equal)
}

/// What a transfer writes: the elements of a buffer, or one value everywhere.
enum Source {
    Copy(Buffer),
    Fill(Value),
}

/// The receiver of this module's models: the evaluator, the state and the
/// call being executed (one place for what every model reads and checks).
struct StringCall<'r, 'e> {
    ev: &'r mut Evaluator<'e>,
    env: &'r mut dyn Environment,
    call: &'r LibCall<'r>,
}

/// Executes a call of one of this module's functions; returns its result.
pub(crate) fn string_call(
    ev: &mut Evaluator<'_>,
    env: &mut dyn Environment,
    call: &LibCall<'_>,
) -> Result<Option<Value>, EngineError> {
    StringCall { ev, env, call }.run()
}

impl StringCall<'_, '_> {
    /// Checks that the `dst_count` elements a copy writes and the `src_count` it
    /// reads do not overlap (`overlapping-copy`: undefined for `memcpy`, `strcpy`
    /// and `strncpy`, C11 7.24.2.1, 7.24.2.3, 7.24.2.4).
    fn check_no_overlap(
        &mut self,
        (dst, dst_count): (&Buffer, Expr),
        (src, src_count): (&Buffer, Expr),
    ) {
        let f = self.ev.factory();
        let claim = f.not(dst.overlap(f, dst_count, src, src_count));
        self.check(claim,
            Property::OverlappingCopy,
            || {
                format!(
                    "`{}` copies between overlapping buffers `{}` and `{}` (undefined behaviour; `memmove` allows overlap)",
                    self.call.name(),
                    self.call.text(0),
                    self.call.text(1)
                )
            });
    }

    /// Dispatches the call to its model.
    fn run(&mut self) -> Result<Option<Value>, EngineError> {
        use LibraryFunction::*;
        match self.call.lf {
            Memcpy | Memmove | Memset => self.copy_call(),
            Memcmp => self.memcmp(),
            Strlen => {
                let Some((s, _)) = self.buffer(0)? else {
                    return Ok(None);
                };
                let len = self.string_length(&s, 0, None)?;
                Ok(len.map(Value::Data))
            }
            Strcmp | Strncmp => self.strcmp(),
            Strcpy | Strncpy => self.strcpy(),
            Atoi | Atol | Strtol => self.string_to_integer(),
            other => Err(EngineError::invalid(
                format!("{} is not a string function", other.c_name()),
                Some(self.call.span),
            )),
        }
    }

    /// Checks `claim` at the call (see [`Evaluator::check`]).
    fn check(&mut self, claim: Expr, property: Property, message: impl FnOnce() -> String) {
        self.ev
            .check(self.env, claim, property, message, self.call.span);
    }

    /// `count` as a number of elements to walk one by one: a concrete one up to
    /// `MAX_WALK`, else unsupported (`why` says so).
    fn walk_length(&self, count: Expr, why: &str) -> Result<usize, EngineError> {
        concrete_index(self.ev.factory(), count)
            .filter(|&k| k <= MAX_WALK)
            .ok_or_else(|| self.call.unsupported(why))
    }

    /// The buffers arguments 0 and 1 point to (`memcmp`, `strcmp`); `None` when
    /// either pointer is invalid (the second is not looked at if the first is).
    fn two_buffers(&mut self) -> Result<Option<[(Buffer, MType); 2]>, EngineError> {
        let Some(first) = self.buffer(0)? else {
            return Ok(None);
        };
        Ok(self.buffer(1)?.map(|second| [first, second]))
    }

    /// The buffer argument `k` points to and its element type; `None` when the
    /// pointer is invalid (the violation is recorded and the path dies).
    fn buffer(&mut self, k: usize) -> Result<Option<(Buffer, MType)>, EngineError> {
        let arg = self.call.arg(k)?;
        if let Some(bytes) = string_literal(arg) {
            let mut bytes = bytes.to_vec();
            bytes.push(0);
            return Ok(Some((Buffer::Literal(bytes), MType::Char)));
        }
        let elem = pointee_type(arg).ok_or_else(|| {
            self.call.unsupported(format!(
                "on untyped memory (`{}` is a `void *`; pass a typed pointer)",
                self.call.text(k)
            ))
        })?;
        let v = self.ev.eval(self.env, arg)?;
        let (root, mut path) = self
            .ev
            .deref_place(self.env, v, true, self.call.span, &|| self.call.text(k))?;
        if is_dead_place(root) {
            return Ok(None);
        }
        let buf = match path.last().copied() {
            Some(Step::Index(start)) => {
                path.pop();
                let extent = self.ev.extent_at(self.env, root, &path);
                Buffer::Elements {
                    root,
                    prefix: path,
                    start,
                    extent,
                }
            }
            _ => Buffer::Single((root, path)),
        };
        Ok(Some((buf, elem)))
    }

    /// The number of `elem` elements in `bytes` bytes; the division must be exact
    /// on every execution of the path.
    fn element_count(&mut self, bytes: Expr, elem: &MType) -> Result<Expr, EngineError> {
        let f = self.ev.factory();
        let size = size_of(self.call.model, elem)
            .ok_or_else(|| self.call.unsupported("on elements without a constant size"))?;
        if size == 1 {
            return Ok(bytes);
        }
        let size = f.int(size);
        let exact = f.eq(f.int_mod(bytes, size), f.int(0));
        let pc = self.ev.current_pc(self.env);
        if !matches!(self.ev.oracle().valid(f, pc, exact), Decision::Holds) {
            return Err(self.call.unsupported(format!(
                "of {} bytes, which may not be a whole number of `{}` elements ({} bytes each): copies of part of an element are not supported",
                f.pretty(bytes),
                type_text(self.call.model, elem),
                f.pretty(size)
            )));
        }
        Ok(f.int_div(bytes, size))
    }

    /// Checks that `count` elements from the start of `buf` lie inside its object.
    /// The message gives the amount as the program wrote it when the count comes
    /// from a byte-count argument (its simplified form can be long).
    fn check_room(&mut self, k: usize, buf: &Buffer, count: Expr) {
        let f = self.ev.factory();
        let Some((claim, room)) = buf.room_claim(f, count) else {
            return;
        };
        let bytes_arg = matches!(
            self.call.lf,
            LibraryFunction::Memcpy
                | LibraryFunction::Memmove
                | LibraryFunction::Memset
                | LibraryFunction::Memcmp
        );
        let amount = match f.as_concrete_int(count) {
            Some(n) => format!("{n} element(s)"),
            None if bytes_arg => format!("`{}` bytes", self.call.text(2)),
            // The string's length as an expression tests every character.
            None if self.call.lf == LibraryFunction::Strcpy => {
                format!("`strlen({})` + 1 element(s)", self.call.text(1))
            }
            None => format!("{} element(s)", f.pretty(count)),
        };
        let verb = match (self.call.lf, k) {
            (LibraryFunction::Memcmp | LibraryFunction::Strncmp, _) | (_, 1) => "reads",
            _ => "writes",
        };
        self.check(claim, Property::OutOfBounds, || {
            format!(
                "`{}` {verb} {amount} of `{}`, which has room for {} element(s)",
                self.call.name(),
                self.call.text(k),
                f.pretty(room)
            )
        });
    }

    /// `memcpy`, `memmove` (copies read the whole source first, so overlapping
    /// buffers behave as `memmove`; `memcpy`'s are reported first) and `memset`.
    fn copy_call(&mut self) -> Result<Option<Value>, EngineError> {
        let dst_value = self.ev.eval(&*self.env, self.call.arg(0)?)?;
        let Some((dst, elem)) = self.buffer(0)? else {
            return Ok(None);
        };
        let bytes = self.ev.eval_int(&*self.env, self.call.arg(2)?)?;
        let source = if self.call.lf == LibraryFunction::Memset {
            let byte = self.ev.eval_int(&*self.env, self.call.arg(1)?)?;
            Source::Fill(self.fill_value(&elem, byte)?)
        } else {
            let Some((src, src_elem)) = self.buffer(1)? else {
                return Ok(None);
            };
            same_elements(self.call, &elem, &src_elem)?;
            Source::Copy(src)
        };
        let count = self.element_count(bytes, &elem)?;
        self.check_room(0, &dst, count);
        if let Source::Copy(src) = &source {
            self.check_room(1, src, count);
            if self.call.lf == LibraryFunction::Memcpy {
                self.check_no_overlap((&dst, count), (src, count));
            }
        }
        self.transfer(&dst, count, &source)?;
        Ok(Some(dst_value))
    }

    /// The value of an `elem` whose bytes all equal `byte` (`memset`).
    fn fill_value(&mut self, elem: &MType, byte: Expr) -> Result<Value, EngineError> {
        let f = self.ev.factory();
        let b = f.as_concrete_int(byte).ok_or_else(|| {
            self.call
                .unsupported("with a byte value that depends on the inputs")
        })?;
        let b = u8::try_from(((b % 256) + 256) % 256).unwrap_or(0);
        if b == 0 {
            return self.ev.zero_value(self.env, elem, self.call.span);
        }
        match elem {
            MType::Char if b < 128 => Ok(Value::Data(f.char(u32::from(b)))),
            MType::Int(kind) => {
                let (bytes, signed) = int_layout(*kind);
                let mut v = BigInt::from(0);
                for _ in 0..bytes {
                    v = v * 256 + u32::from(b);
                }
                if signed && b >= 128 {
                    v -= BigInt::from(1) << (8 * bytes);
                }
                Ok(Value::Data(f.int(v)))
            }
            other => Err(self.call.unsupported(format!(
                "of `{}` elements with the non-zero byte {b}",
                type_text(self.call.model, other)
            ))),
        }
    }

    /// Writes `count` elements of `source` to `dst` (bounds already checked).
    fn transfer(&mut self, dst: &Buffer, count: Expr, source: &Source) -> Result<(), EngineError> {
        let f = self.ev.factory();
        if f.as_bool(self.ev.current_pc(&*self.env)) == Some(false) {
            return Ok(()); // a failed bounds check ended the path
        }
        let concrete = concrete_index(f, count);
        if let Some(k) = concrete.filter(|&k| k <= MAX_UNROLLED) {
            let values: Vec<Value> = (0..k)
                .map(|j| match source {
                    Source::Copy(src) => src.read(self.ev, &*self.env, f.int(j)),
                    Source::Fill(v) => v.clone(),
                })
                .collect();
            for (j, v) in values.into_iter().enumerate() {
                let place = dst
                    .place(f, f.int(j))
                    .ok_or_else(|| self.call.unsupported("writing into a string literal"))?;
                self.ev.write_place(self.env, &place, v, self.call.span)?;
            }
            return Ok(());
        }
        self.transfer_whole(dst, count, source)
    }

    /// A transfer of a symbolic (or long) count between data arrays, as one array
    /// expression: element `i` of the destination is the source's where
    /// `start <= i < start + count`, and unchanged elsewhere.
    fn transfer_whole(
        &mut self,
        dst: &Buffer,
        count: Expr,
        source: &Source,
    ) -> Result<(), EngineError> {
        let f = self.ev.factory();
        let not_data = || {
            self.call
                .unsupported("of a symbolic number (or more than 256) of pointers or structs")
        };
        let Buffer::Elements {
            root,
            prefix,
            start,
            ..
        } = dst
        else {
            return Err(not_data());
        };
        let Value::Data(old) = self.ev.read_place(&*self.env, &(*root, prefix.clone())) else {
            return Err(not_data());
        };
        let i = f.symbol("__tass_i", Type::Int);
        let from = match source {
            Source::Fill(Value::Data(v)) => *v,
            Source::Copy(Buffer::Elements {
                root: sroot,
                prefix: sprefix,
                start: sstart,
                ..
            }) => {
                let Value::Data(s) = self.ev.read_place(&*self.env, &(*sroot, sprefix.clone()))
                else {
                    return Err(not_data());
                };
                f.array_read(s, f.add(f.sub(i, *start), *sstart))
            }
            Source::Copy(Buffer::Literal(bytes)) => {
                let chars: Vec<Expr> = bytes.iter().map(|&b| char_of_byte(f, b)).collect();
                let lit =
                    f.array_literal(Type::array(Type::Char, Some(f.int(chars.len()))), &chars);
                f.array_read(lit, f.sub(i, *start))
            }
            _ => return Err(not_data()),
        };
        let inside = f.and(f.le(*start, i), f.lt(i, f.add(*start, count)));
        let body = f.ite(inside, from, f.array_read(old, i));
        let new = f.array_lambda(f.type_of(old), i, body);
        self.ev.write_place(
            self.env,
            &(*root, prefix.clone()),
            Value::Data(new),
            self.call.span,
        )
    }

    /// `memcmp`: a concrete count of scalar elements.
    fn memcmp(&mut self) -> Result<Option<Value>, EngineError> {
        let f = self.ev.factory();
        let Some([(a, elem), (b, b_elem)]) = self.two_buffers()? else {
            return Ok(None);
        };
        same_elements(self.call, &elem, &b_elem)?;
        let bytes = self.ev.eval_int(&*self.env, self.call.arg(2)?)?;
        let count = self.element_count(bytes, &elem)?;
        self.check_room(0, &a, count);
        self.check_room(1, &b, count);
        let k = self.walk_length(count, "of a number of bytes that depends on the inputs")?;
        if scalar_type(&elem).is_none() {
            return Err(self.call.unsupported(format!(
                "of `{}` elements (only scalars are compared)",
                type_text(self.call.model, &elem)
            )));
        }
        let bytewise = size_of(self.call.model, &elem) == Some(1);
        let mut pairs = Vec::with_capacity(k);
        for j in 0..k {
            let x = self.scalar(&a.read(self.ev, &*self.env, f.int(j)), 0);
            let y = self.scalar(&b.read(self.ev, &*self.env, f.int(j)), 1);
            pairs.push((x, y));
        }
        if bytewise {
            // the first differing byte decides, compared as unsigned char
            let mut diff = f.int(0);
            for &(x, y) in pairs.iter().rev() {
                let d = f.sub(unsigned_char(f, x), unsigned_char(f, y));
                diff = f.ite(f.eq(x, y), diff, d);
            }
            return Ok(Some(Value::Data(sign_of(self.ev, diff, "memcmp"))));
        }
        // The order of wider elements depends on their byte order: only equality
        // is modelled; a difference gives an unknown non-zero result.
        let equal = f.and_all(pairs.iter().map(|&(x, y)| f.eq(x, y)));
        let other = f.fresh_symbol("__tass_memcmp", Type::Int);
        self.ev.oracle().note_abstraction(other);
        self.ev.assumed.push(f.ne(other, f.int(0)));
        Ok(Some(Value::Data(f.ite(equal, f.int(0), other))))
    }

    /// A scalar element as a number (characters by their code); an uninitialised
    /// one is reported and stands for an arbitrary value.
    fn scalar(&mut self, v: &Value, k: usize) -> Expr {
        let f = self.ev.factory();
        match v {
            Value::Data(x) if !is_undefined_data(f, *x) => match f.type_of(*x) {
                Type::Char => f.cast(*x, &Type::Int),
                Type::Bool => f.cast(*x, &Type::Int),
                _ => *x,
            },
            _ => {
                let message = format!(
                    "`{}` reads an uninitialised element of `{}`",
                    self.call.name(),
                    self.call.text(k)
                );
                let claim = FalseClaim::new(Property::InvalidPointer, message, self.call.span);
                self.ev.record_false(self.env, claim.keeping_path());
                f.fresh_symbol("undef", Type::Int)
            }
        }
    }

    /// Character `k` of string `s`, if the walk gets there (`reached`): checks that
    /// it lies inside its object. `None` when the path ended.
    fn string_char(&mut self, s: &Buffer, which: usize, k: usize, reached: Expr) -> Option<Expr> {
        let f = self.ev.factory();
        if let Some((inside, _)) = s.room_claim(f, f.int(k + 1)) {
            let claim = f.implies(reached, inside);
            self.check(claim, Property::OutOfBounds, || {
                format!(
                    "`{}` reads past the end of `{}` (no terminating NUL inside its object)",
                    self.call.name(),
                    self.call.text(which)
                )
            });
            if f.as_bool(self.ev.current_pc(self.env)) == Some(false) {
                return None;
            }
            if f.as_bool(inside) == Some(false) {
                // past the end, and the check showed the walk never gets here on this
                // path (`reached` is false although not syntactically): end the walk,
                // which would otherwise go on to MAX_WALK (a NUL at a symbolic index
                // made `strlen` run for minutes)
                return Some(f.char(0));
            }
        }
        let v = s.read(self.ev, self.env, f.int(k));
        Some(self.scalar(&v, which))
    }

    /// Walks strings position by position from 0 while some path reaches the
    /// position (`reached`, true at 0): `step` reads the characters at `k`
    /// (each read checked inside its object), records the outcomes that end
    /// the walk there, and gives the condition to go on (`None`: the path
    /// ended at a failed check, and so does the walk). At `walk.limit` the
    /// walk ends with the outcome `(reached, at_limit(k))`. What `strlen`,
    /// `strcmp` and their bounded forms share.
    fn walk_strings<T>(
        &mut self,
        walk: StringWalk,
        at_limit: impl Fn(usize) -> T,
        mut step: impl FnMut(&mut Self, usize, Expr, &mut Vec<(Expr, T)>) -> Option<Expr>,
    ) -> Result<Option<Vec<(Expr, T)>>, EngineError> {
        let f = self.ev.factory();
        let mut reached = f.tt();
        let mut outcomes = Vec::new();
        for k in 0.. {
            if f.as_bool(reached) == Some(false) {
                break;
            }
            if walk.limit == Some(k) {
                outcomes.push((reached, at_limit(k)));
                break;
            }
            if k >= MAX_WALK {
                return Err(self.call.unsupported(walk.too_long));
            }
            let Some(next) = step(self, k, reached, &mut outcomes) else {
                return Ok(None);
            };
            reached = next;
        }
        Ok(Some(outcomes))
    }

    /// The length of string `s` (at most `limit`), as an expression over its
    /// characters; `None` when the path ended at a failed check.
    fn string_length(
        &mut self,
        s: &Buffer,
        which: usize,
        limit: Option<usize>,
    ) -> Result<Option<Expr>, EngineError> {
        let f = self.ev.factory();
        let walk = StringWalk {
            limit,
            too_long: "of a string longer than 65536 characters",
        };
        let at_limit = |k| k;
        let Some(ends) = self.walk_strings(walk, at_limit, |this, k, reached, ends| {
            let c = this.string_char(s, which, k, reached)?;
            let nul = f.eq(c, f.int(0));
            ends.push((f.and(reached, nul), k));
            Some(f.and(reached, f.not(nul)))
        })?
        else {
            return Ok(None);
        };
        let mut len = f.int(ends.last().map_or(0, |e| e.1));
        for &(cond, k) in ends.iter().rev().skip(1) {
            len = f.ite(cond, f.int(k), len);
        }
        Ok(Some(len))
    }

    /// `strcmp` and `strncmp`: the sign of the first difference, as unsigned char.
    fn strcmp(&mut self) -> Result<Option<Value>, EngineError> {
        let f = self.ev.factory();
        let Some([(a, _), (b, _)]) = self.two_buffers()? else {
            return Ok(None);
        };
        let limit = if self.call.lf == LibraryFunction::Strncmp {
            let n = self.ev.eval_int(&*self.env, self.call.arg(2)?)?;
            let n = concrete_index(f, n).ok_or_else(|| {
                self.call
                    .unsupported("with a length that depends on the inputs")
            })?;
            Some(n)
        } else {
            None
        };
        let walk = StringWalk {
            limit,
            too_long: "of strings longer than 65536 characters",
        };
        let at_limit = |_| f.int(0);
        let Some(outcomes) = self.walk_strings(walk, at_limit, |this, k, reached, outcomes| {
            let x = this.string_char(&a, 0, k, reached)?;
            let y = this.string_char(&b, 1, k, reached)?;
            let same = f.eq(x, y);
            outcomes.push((
                f.and(reached, f.not(same)),
                f.sub(unsigned_char(f, x), unsigned_char(f, y)),
            ));
            let end = f.eq(x, f.int(0));
            outcomes.push((f.and(reached, f.and(same, end)), f.int(0)));
            Some(f.and_all([reached, same, f.not(end)]))
        })?
        else {
            return Ok(None);
        };
        let mut diff = f.int(0);
        for &(cond, d) in outcomes.iter().rev() {
            diff = f.ite(cond, d, diff);
        }
        Ok(Some(Value::Data(sign_of(self.ev, diff, "strcmp"))))
    }

    /// `strcpy` and `strncpy`.
    fn strcpy(&mut self) -> Result<Option<Value>, EngineError> {
        let f = self.ev.factory();
        let dst_value = self.ev.eval(&*self.env, self.call.arg(0)?)?;
        let Some((dst, elem)) = self.buffer(0)? else {
            return Ok(None);
        };
        if elem != MType::Char {
            return Err(self.call.unsupported("into an array that is not of `char`"));
        }
        let Some((src, src_elem)) = self.buffer(1)? else {
            return Ok(None);
        };
        same_elements(self.call, &elem, &src_elem)?;
        if self.call.lf == LibraryFunction::Strcpy {
            let Some(len) = self.string_length(&src, 1, None)? else {
                return Ok(None);
            };
            let count = f.add(len, f.int(1));
            self.check_room(0, &dst, count);
            self.check_no_overlap((&dst, count), (&src, count));
            self.transfer(&dst, count, &Source::Copy(src))?;
            return Ok(Some(dst_value));
        }
        // strncpy: the first n characters of the string, padded with NULs
        let n = self.ev.eval_int(&*self.env, self.call.arg(2)?)?;
        let n_concrete = self.walk_length(n, "with a length that depends on the inputs")?;
        let Some(len) = self.string_length(&src, 1, Some(n_concrete))? else {
            return Ok(None);
        };
        self.check_room(0, &dst, n);
        // it reads the string and its NUL, or only its first n characters
        let read = f.ite(f.lt(len, n), f.add(len, f.int(1)), n);
        self.check_no_overlap((&dst, n), (&src, read));
        self.transfer(&dst, len, &Source::Copy(src))?;
        let zero = self.ev.zero_value(&*self.env, &elem, self.call.span)?;
        let rest = dst
            .advanced(f, len)
            .ok_or_else(|| self.call.unsupported("into a single character"))?;
        self.transfer(&rest, f.sub(n, len), &Source::Fill(zero))?;
        Ok(Some(dst_value))
    }

    /// `atoi`, `atol` and `strtol` (with a NULL end pointer) of a string whose
    /// characters are known.
    fn string_to_integer(&mut self) -> Result<Option<Value>, EngineError> {
        let f = self.ev.factory();
        let Some((s, _)) = self.buffer(0)? else {
            return Ok(None);
        };
        let mut base = 10;
        if self.call.lf == LibraryFunction::Strtol {
            let end = self.ev.eval(&*self.env, self.call.arg(1)?)?;
            if !matches!(end, Value::Pointer(tass_dynamic::api::Pointer::Null)) {
                return Err(self
                    .call
                    .unsupported("with an end pointer (only `NULL` is supported)"));
            }
            let b = self.ev.eval_int(&*self.env, self.call.arg(2)?)?;
            base = f
                .as_concrete_int(b)
                .and_then(|b| u32::try_from(b).ok())
                .filter(|&b| b == 0 || (2..=36).contains(&b))
                .ok_or_else(|| {
                    self.call
                        .unsupported("with a base that is not a constant 0 or 2..36")
                })?;
        }
        let mut text = Vec::new();
        for k in 0..MAX_WALK {
            let Some(c) = self.string_char(&s, 0, k, f.tt()) else {
                return Ok(None);
            };
            let c = f
                .as_concrete_int(c)
                .and_then(|c| u8::try_from(c).ok())
                .ok_or_else(|| {
                    self.call
                        .unsupported("of a string whose characters depend on the inputs")
                })?;
            if c == 0 {
                break;
            }
            text.push(c);
        }
        let value = parse_integer(&text, base);
        let (lo, hi) = if self.call.lf == LibraryFunction::Atoi {
            (-(1i128 << 31), (1i128 << 31) - 1)
        } else {
            (-(1i128 << 63), (1i128 << 63) - 1)
        };
        if !(lo..=hi).contains(&value) {
            return Err(self.call.unsupported(format!(
                "of \"{}\", whose value is out of range",
                String::from_utf8_lossy(&text)
            )));
        }
        Ok(Some(Value::Data(f.int(value))))
    }
}

/// The placeholder place `deref_place` returns for an invalid pointer.
fn is_dead_place(root: Root) -> bool {
    root == Root::Heap {
        proc: u32::MAX,
        object: u32::MAX,
    }
}

/// The bytes of a string literal argument (through its decay and casts).
fn string_literal(e: &MExpr) -> Option<&[u8]> {
    match &e.kind {
        ExprKind::Cast(inner) | ExprKind::Decay(inner) => string_literal(inner),
        ExprKind::StringLit(bytes) => Some(bytes),
        _ => None,
    }
}

fn type_text(model: &Model, ty: &MType) -> String {
    match ty {
        MType::Struct(id) => format!("struct {}", model.struct_def(*id).name),
        MType::Char => "char".into(),
        MType::Int(k) => k.c_name().into(),
        MType::Real(k) => k.c_name().into(),
        MType::Bool => "_Bool".into(),
        MType::Array(..) => "array".into(),
        MType::Pointer(_) => "pointer".into(),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// Copies and comparisons keep values as they are: both buffers must hold
/// elements of one type (a string literal counts as `char`).
fn same_elements(call: &LibCall<'_>, a: &MType, b: &MType) -> Result<(), EngineError> {
    if a == b {
        return Ok(());
    }
    Err(call.unsupported(format!(
        "between `{}` and `{}` elements (their bytes would be reinterpreted)",
        type_text(call.model, a),
        type_text(call.model, b)
    )))
}

/// Size in bytes and signedness (LP64).
fn int_layout(kind: IntKind) -> (u32, bool) {
    match kind {
        IntKind::UnsignedChar => (1, false),
        IntKind::Short => (2, true),
        IntKind::UnsignedShort => (2, false),
        IntKind::Int => (4, true),
        IntKind::Unsigned => (4, false),
        IntKind::Long | IntKind::LongLong => (8, true),
        IntKind::UnsignedLong | IntKind::UnsignedLongLong => (8, false),
    }
}

/// A fresh result with the sign of `diff` (C only fixes the sign of
/// `strcmp`/`memcmp` results).
fn sign_of(ev: &mut Evaluator<'_>, diff: Expr, what: &str) -> Expr {
    let f = ev.factory();
    if let Some(d) = f.as_concrete_int(diff) {
        let zero = BigInt::from(0);
        return f.int(i32::from(d > zero) - i32::from(d < zero));
    }
    let r = f.fresh_symbol(&format!("__tass_{what}"), Type::Int);
    let zero = f.int(0);
    ev.assumed.push(f.and_all([
        f.iff(f.eq(diff, zero), f.eq(r, zero)),
        f.iff(f.lt(diff, zero), f.lt(r, zero)),
    ]));
    r
}

/// A character code as `unsigned char` (codes of negative `char`s wrap).
fn unsigned_char(f: &ExprFactory, c: Expr) -> Expr {
    match f.as_concrete_int(c) {
        Some(v) if v >= BigInt::from(0) => c,
        Some(v) => f.int(((v % 256) + 256) % 256),
        // a symbolic char may be negative too (`(char)200` is -56 and compares
        // above 'z'); char values lie within -128..127, so one 256 is enough
        None => {
            let code = match f.type_of(c) {
                Type::Int => c,
                _ => f.cast(c, &Type::Int),
            };
            f.ite(f.lt(code, f.int(0)), f.add(code, f.int(256)), code)
        }
    }
}

/// The C conversion of `text` in `base` (0: by prefix): leading white space,
/// a sign, then digits as far as they go (0 if there are none).
fn parse_integer(text: &[u8], base: u32) -> i128 {
    let mut rest = text;
    while let [c, tail @ ..] = rest {
        if !c.is_ascii_whitespace() {
            break;
        }
        rest = tail;
    }
    let mut negative = false;
    if let [s @ (b'+' | b'-'), tail @ ..] = rest {
        negative = *s == b'-';
        rest = tail;
    }
    let hex_prefix = matches!(rest, [b'0', b'x' | b'X', d, ..] if d.is_ascii_hexdigit());
    let base = match base {
        0 if hex_prefix => 16,
        0 if rest.first() == Some(&b'0') => 8,
        0 => 10,
        b => b,
    };
    if base == 16 && hex_prefix {
        rest = &rest[2..];
    }
    let mut value: i128 = 0;
    for &c in rest {
        let Some(d) = (c as char).to_digit(base) else {
            break;
        };
        value = value
            .saturating_mul(i128::from(base))
            .saturating_add(i128::from(d));
    }
    if negative {
        -value
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::parse_integer;

    #[test]
    fn parses_like_strtol() {
        assert_eq!(parse_integer(b"  -42xyz", 10), -42);
        assert_eq!(parse_integer(b"+17", 10), 17);
        assert_eq!(parse_integer(b"0x1F", 0), 31);
        assert_eq!(parse_integer(b"0x1F", 16), 31);
        assert_eq!(parse_integer(b"017", 0), 15);
        assert_eq!(parse_integer(b"abc", 10), 0);
        assert_eq!(parse_integer(b"", 10), 0);
    }
}
